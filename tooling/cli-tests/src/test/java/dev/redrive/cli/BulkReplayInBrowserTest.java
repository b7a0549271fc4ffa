package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.localstack.browser.HeadlessChromium;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A bulk replay worked entirely from the console in a real browser, over local AWS: a group's dry run, a dead letter
 * that arrives after it (it does not join the frozen scope), the confirmation with a typed reason, the progress the
 * page polls, and the final tallies — counts exact, each message sent once, and nothing the page's policy blocks.
 */
@LocalAwsTest(resetBeforeEach = true)
class BulkReplayInBrowserTest {

    static final int TIMEOUTS = 8;
    static final int INCOMPATIBLE = 2;

    @TempDir
    Path stateDir;

    @Test
    void groupThenDryRunThenConfirmThenProgressThenDoneWithExactCounts(LocalAws aws) throws Exception {
        CliRig rig = new CliRig(aws);
        for (int i = 0; i < TIMEOUTS; i++) {
            rig.deadLetter(
                    "q-t" + i, Orders.v2("e-t" + i, 100 + i), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(3));
        }
        for (int i = 0; i < INCOMPATIBLE; i++) {
            rig.deadLetter("q-v" + i, Orders.v0("e-v" + i), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(2));
        }
        rig.deadLetter("q-p", Orders.v2("e-p", 1), FailureClass.PERMANENT, "InvalidRecipient", Duration.ofHours(1));

        try (BrowserConsole console = BrowserConsole.open(rig, "--state-dir", stateDir.toString())) {
            console.go("/groups?queue=" + CliRig.QUEUE);
            groupForm(console, "Timeout")
                    .findElement(By.cssSelector("button[value='replay']"))
                    .click();

            console.awaitElement("#dry-run-tallies");
            assertThat(tallies(console, "#dry-run-tallies"))
                    .isEqualTo(Map.of("SENT", TIMEOUTS, "REFUSED", INCOMPATIBLE));
            assertThat(console.find("#confirm-count").getText()).isEqualTo(String.valueOf(TIMEOUTS + INCOMPATIBLE));
            assertThat(console.all("#lines tbody tr")).hasSize(TIMEOUTS + INCOMPATIBLE);
            assertThat(console.all("#warnings"))
                    .as("no POISON or PERMANENT in the group")
                    .isEmpty();

            // arrives after the dry run, in the same group: not in the frozen scope
            rig.deadLetter("q-late", Orders.v2("e-late", 999), FailureClass.TRANSIENT, "Timeout", Duration.ZERO);

            console.find("#confirm input[name='reason']").sendKeys("mail provider back after the outage");
            console.find("#confirm button[type='submit']").click();

            // the progress page refreshes itself: an element of the page being replaced is asked again on the new one
            new WebDriverWait(console.browser, Duration.ofSeconds(60))
                    .until(HeadlessChromium.textShown(By.id("phase"), "DONE"::equals));
            assertThat(console.find("#done").getText()).isEqualTo(String.valueOf(TIMEOUTS + INCOMPATIBLE));
            assertThat(console.find("#left").getText()).isEqualTo("0");
            assertThat(tallies(console, "#tallies")).isEqualTo(Map.of("SENT", TIMEOUTS, "REFUSED", INCOMPATIBLE));
            assertThat(console.find("#reason").getText()).isEqualTo("mail provider back after the outage");
            assertThat(console.consoleProblems())
                    .as("no CSP violation, script error or failed load")
                    .isEmpty();

            Map<String, Integer> sends = rig.sendsById();
            assertThat(sends).hasSize(TIMEOUTS);
            assertThat(sends.values()).as("each sent once").containsOnly(1);
            assertThat(sends).doesNotContainKey("q-late");
            for (int i = 0; i < TIMEOUTS; i++) {
                assertThat(rig.record("q-t" + i).state()).isEqualTo(QuarantineState.REPLAYED);
            }
            for (int i = 0; i < INCOMPATIBLE; i++) {
                assertThat(rig.record("q-v" + i).state()).isEqualTo(QuarantineState.ARCHIVED);
            }
            assertThat(rig.record("q-late").state()).isEqualTo(QuarantineState.QUARANTINED);
            assertThat(rig.record("q-p").state()).isEqualTo(QuarantineState.QUARANTINED);
            var audit = rig.record("q-t0").audit();
            assertThat(audit.get(audit.size() - 1).actor().name()).isEqualTo("ada");

            console.go("/bulk/runs");
            assertThat(console.all("#runs tbody tr")).hasSize(1);
            assertThat(console.find("#runs tbody tr").getText()).contains("DONE", "10 of 10");
            try (Stream<Path> files = Files.list(stateDir)) {
                assertThat(files.map(p -> p.getFileName().toString()))
                        .as("the run is journaled in --state-dir")
                        .anyMatch(name -> name.endsWith(".json"))
                        .anyMatch(name -> name.endsWith(".outcomes"));
            }
        }
    }

    private static WebElement groupForm(BrowserConsole console, String errorType) {
        return console.all("form.bulk-group").stream()
                .filter(f -> errorType.equals(f.findElement(By.cssSelector("input[name='groupErrorType']"))
                        .getAttribute("value")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no bulk form for the group " + errorType));
    }

    private static Map<String, Integer> tallies(BrowserConsole console, String table) {
        Map<String, Integer> t = new HashMap<>();
        for (WebElement row : console.all(table + " tbody tr")) {
            t.put(
                    row.getAttribute("data-outcome"),
                    Integer.parseInt(row.findElements(By.tagName("td")).get(1).getText()));
        }
        return t;
    }
}
