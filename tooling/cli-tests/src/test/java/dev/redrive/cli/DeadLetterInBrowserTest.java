package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A dead letter's page in a real browser (headless Chromium) over local AWS, served by {@code redrive console}: the
 * payload redacted by the route's schema, the claim, the checks' answer and the timeline drawn with nothing blocked; a
 * click on reveal shows the sensitive fields once and writes the audit entry to the DynamoDB ledger.
 */
@LocalAwsTest(resetBeforeEach = true)
class DeadLetterInBrowserTest {

    @Test
    void thePayloadIsRedactedUntilARevealWhichIsRecordedInTheLedger(LocalAws aws) {
        CliRig rig = new CliRig(aws);
        rig.deadLetter("q-r1", Orders.v2("e-r1", 4200), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(2));
        try (BrowserConsole console = BrowserConsole.open(rig)) {
            console.go("/dead-letters/q-r1");

            assertThat(console.find("#state").getText()).isEqualTo("QUARANTINED");
            assertThat(console.text())
                    .doesNotContain("ada@example.com", "Ada Lovelace")
                    .contains("\"amountMinor\" : 4200", "[redacted]");
            assertThat(console.all("#sensitive-paths li"))
                    .extracting(e -> e.getText())
                    .containsExactly("$.customer.email", "$.customer.name");
            assertThat(console.find("#checks-verdict").getText()).isNotBlank();
            assertThat(console.find("#claim-applied").getText()).isNotBlank();
            assertThat(console.all("#timeline tbody tr"))
                    .extracting(e -> e.getAttribute("data-kind"))
                    .contains("arrival");
            assertThat(console.consoleProblems()).isEmpty();

            console.find("#reveal button[type='submit']").click();
            console.awaitElement("#payload-revealed");

            assertThat(console.text()).contains("ada@example.com", "Ada Lovelace");
            assertThat(rig.record("q-r1").audit()).last().satisfies(a -> {
                assertThat(a.action()).isEqualTo(AuditEntry.Action.PAYLOAD_REVEALED);
                assertThat(a.actor()).isEqualTo(Actor.person("ada"));
                assertThat(a.to()).isEqualTo(QuarantineState.QUARANTINED);
                assertThat(a.reason())
                        .isEqualTo("revealed the payload's sensitive fields: $.customer.email, " + "$.customer.name");
            });
            assertThat(console.consoleProblems()).isEmpty();

            console.go("/dead-letters/q-r1");
            assertThat(console.text()).doesNotContain("ada@example.com", "Ada Lovelace");
            assertThat(console.all("#timeline tr[data-kind='payload revealed']"))
                    .hasSize(1);
        }
    }
}
