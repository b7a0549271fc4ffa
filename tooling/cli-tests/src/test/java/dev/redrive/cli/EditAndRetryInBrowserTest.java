package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;

/**
 * Edit and retry worked from the console in a real browser over local AWS: the editor opens only by revealing, an edit
 * that breaks the consumer's schema is refused with the validator's words and sends nothing, an accepted edit is sent
 * once (the edited body, with the replay marker), the DynamoDB ledger keeps the original, and the timeline shows who,
 * why and the diff.
 */
@LocalAwsTest(resetBeforeEach = true)
class EditAndRetryInBrowserTest {

    @Test
    void aRefusedEditSendsNothingAndAnAcceptedOneIsSentOnceWithItsDiffInTheTimeline(LocalAws aws) {
        CliRig rig = new CliRig(aws);
        String original = Orders.v2("e-ed1", 100);
        QuarantineRecord dead =
                rig.deadLetter("q-ed1", original, FailureClass.PERMANENT, "AmountTooSmall", Duration.ofHours(1));
        try (BrowserConsole console = BrowserConsole.open(rig)) {
            console.go("/dead-letters/q-ed1");
            console.clickAndLeave("#edit-and-retry");
            assertThat(console.all("#payload"))
                    .as("the editor is closed until the payload is revealed")
                    .isEmpty();
            console.clickAndLeave("#open button[type='submit']");
            WebElement payload = console.awaitElement("#payload");
            assertThat(payload.getDomProperty("value")).isEqualTo(original);

            // An edit that breaks the schema: refused on the check, with the validator's words; no send button.
            replace(payload, Orders.brokenV2("e-ed1"));
            console.clickAndLeave("#check");
            assertThat(console.awaitElement("#schema").getText()).contains("$.total is string, expected object");
            assertThat(console.all("#send")).isEmpty();

            // The edit that fixes it: checked, then sent with a reason.
            String fixed = original.replace("\"amountMinor\":100", "\"amountMinor\":250");
            replace(console.find("#payload"), fixed);
            console.clickAndLeave("#check");
            assertThat(console.awaitElement("#diff").getText()).contains("/total/amountMinor: 100 → 250");
            console.find("#reason").sendKeys("the shop sent cents as euros; corrected from the order");
            console.clickAndLeave("#send");
            console.awaitElement("#timeline");
            assertThat(console.browser.getCurrentUrl()).endsWith("/dead-letters/q-ed1");
            assertThat(console.text()).contains("/total/amountMinor: 100 → 250", "corrected from the order");
            assertThat(console.consoleProblems()).isEmpty();
        }

        assertThat(rig.drainSource()).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo(Orders.v2("e-ed1", 250));
            assertThat(m.messageAttributes().get(ReplayMarker.ATTRIBUTE).stringValue())
                    .contains("q-ed1");
        });
        QuarantineRecord after = rig.record("q-ed1");
        assertThat(after.state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(after.body()).as("the original is kept").isEqualTo(original);
        List<AuditEntry> audit = after.audit();
        AuditEntry last = audit.get(audit.size() - 1);
        assertThat(last.actor()).isEqualTo(Actor.person("ada"));
        assertThat(last.reason()).contains("corrected from the order", "/total/amountMinor: 100 → 250");
        assertThat(audit).hasSizeGreaterThan(dead.audit().size());
    }

    /** Replaces a textarea's whole text as a person would (select all, type). */
    private static void replace(WebElement textarea, String text) {
        textarea.clear();
        textarea.sendKeys(text);
    }
}
