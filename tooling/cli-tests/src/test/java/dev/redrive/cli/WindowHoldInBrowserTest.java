package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.localstack.browser.HeadlessChromium;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A window with a hold, worked from the console in a real browser (headless Chromium) over local AWS: an operator adds
 * a window for the route's dependency that holds its breaker from now, sees the breaker OPEN and held on the breakers
 * page, has a mistyped dependency refused naming the known one, ends the hold, and removes the window. After each step
 * the control table is read through the AWS adapters: what the page says is what was written.
 */
@LocalAwsTest(resetBeforeEach = true)
class WindowHoldInBrowserTest {

    static final String DEPENDENCY = ConfirmationEmailConsumer.DEPENDENCY;

    @Test
    void aWindowThatHoldsTheBreakerFromNowUntilTheHoldIsEndedAndTheWindowRemoved(LocalAws aws) {
        CliRig rig = new CliRig(aws);
        DynamoDbMaintenanceWindows windows = new DynamoDbMaintenanceWindows(aws.dynamoDb(), "redrive-control");
        DynamoDbBreakerStore breakers = new DynamoDbBreakerStore(aws.dynamoDb(), "redrive-control");
        assertThat(windows.list()).isEmpty();
        assertThat(breakers.read(DEPENDENCY)).isEqualTo(BreakerState.closed());

        try (BrowserConsole console = BrowserConsole.open(rig)) {
            // 1. Add a two-hour window for the route's dependency that holds its breaker from now.
            console.go("/windows");
            assertThat(console.find("#no-windows").getText()).contains("No maintenance windows");
            fill(console, "#add-window input[name='dependency']", DEPENDENCY);
            fill(console, "#add-window input[name='start']", "now");
            fill(console, "#add-window input[name='duration']", "2h");
            fill(console, "#add-window input[name='reason']", "CHG-77 provider maintenance");
            fill(console, "#add-window input[name='id']", "chg-77");
            WebElement hold = console.find("#add-window input[name='hold']");
            if (!hold.isSelected()) {
                hold.click();
            }
            console.find("#add-window button[type='submit']").click();
            awaitText(console, "#message", "Added window chg-77.");
            WebElement row = console.find("tr[data-window='chg-77']");
            assertThat(row.getText()).contains(DEPENDENCY, "CHG-77 provider maintenance", "ada");
            assertThat(row.findElement(By.cssSelector(".holds")).getText()).isEqualTo("yes");

            MaintenanceWindow added = windows.find("chg-77").orElseThrow();
            assertThat(added.dependency()).isEqualTo(DEPENDENCY);
            assertThat(added.start()).isEqualTo(CliRig.NOW);
            assertThat(added.end()).isEqualTo(CliRig.NOW.plus(Duration.ofHours(2)));
            assertThat(added.holdsBreaker()).isTrue();
            assertThat(added.approvedBy()).isEqualTo("ada");
            BreakerState held = breakers.read(DEPENDENCY);
            assertThat(held.status()).isEqualTo(BreakerState.Status.OPEN);
            assertThat(held.held()).isTrue();
            assertThat(held.openUntil()).as("held to the window's end").isEqualTo(added.end());

            // 2. The breakers page shows it OPEN and held by the window.
            console.go("/breakers");
            WebElement breaker = console.find("tr[data-dependency='" + DEPENDENCY + "']");
            assertThat(breaker.findElement(By.cssSelector(".state")).getText()).isEqualTo("OPEN");
            assertThat(breaker.findElement(By.cssSelector(".held")).getText()).startsWith("yes: chg-77");
            assertThat(breaker.findElement(By.cssSelector(".open-until")).getText())
                    .isEqualTo("2026-11-29 14:00:00Z");
            assertThat(console.consoleProblems()).isEmpty();

            // 3. A mistyped dependency is refused, naming the known one; nothing is written.
            console.go("/windows");
            fill(console, "#add-window input[name='dependency']", "emial-provider");
            fill(console, "#add-window input[name='reason']", "CHG-78 typo");
            fill(console, "#add-window input[name='id']", "chg-78");
            console.find("#add-window button[type='submit']").click();
            awaitText(console, "#error", "unknown dependency 'emial-provider'");
            assertThat(console.find("#error").getText()).contains("did you mean '" + DEPENDENCY + "'?");
            assertThat(console.find("#add-window input[name='dependency']").getAttribute("value"))
                    .as("the form as typed")
                    .isEqualTo("emial-provider");
            assertThat(windows.list()).extracting(MaintenanceWindow::id).containsExactly("chg-77");
            assertThat(breakers.read(DEPENDENCY)).isEqualTo(held);
            assertThat(console.consoleProblems())
                    .as("nothing but the form's own answer, a 400")
                    .allSatisfy(p -> assertThat(p).contains("/windows", "status of 400"));

            // 4. End the hold from the breakers page: the window stays, approving replays, holding nothing.
            console.go("/breakers");
            console.find("tr[data-dependency='" + DEPENDENCY + "'] form.release button")
                    .click();
            awaitText(console, "#message", "Released the " + DEPENDENCY + " circuit breaker");
            assertThat(console.find("#message").getText()).contains("chg-77 no longer holds it");
            assertThat(console.find("tr[data-dependency='" + DEPENDENCY + "'] .held")
                            .getText())
                    .isEqualTo("no");
            BreakerState released = breakers.read(DEPENDENCY);
            assertThat(released.held()).isFalse();
            assertThat(released.status()).isEqualTo(BreakerState.Status.OPEN);
            assertThat(released.openUntil()).as("the next call probes").isEqualTo(CliRig.NOW);
            assertThat(windows.find("chg-77"))
                    .hasValueSatisfying(w -> assertThat(w.holdsBreaker()).isFalse());
            assertThat(breakers.history(DEPENDENCY).get(0).reason()).contains("ada");

            // 5. Remove the window.
            console.go("/windows");
            assertThat(console.find("tr[data-window='chg-77'] .holds").getText())
                    .isEqualTo("no");
            console.find("tr[data-window='chg-77'] form.remove button").click();
            awaitText(console, "#message", "Removed window chg-77");
            assertThat(console.all("tr[data-window='chg-77']")).isEmpty();
            assertThat(windows.list()).isEmpty();
            assertThat(breakers.read(DEPENDENCY).held()).isFalse();
            assertThat(console.consoleProblems()).isEmpty();
        }
    }

    private static void fill(BrowserConsole console, String css, String value) {
        WebElement input = console.find(css);
        input.clear();
        input.sendKeys(value);
    }

    private static void awaitText(BrowserConsole console, String css, String text) {
        new WebDriverWait(console.browser, Duration.ofSeconds(30))
                .until(HeadlessChromium.textShown(By.cssSelector(css), shown -> shown.contains(text)));
    }
}
