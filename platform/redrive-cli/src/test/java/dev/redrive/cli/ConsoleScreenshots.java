package dev.redrive.cli;

import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.sweeper.QuarantineIds;
import dev.redrive.testing.localaws.LocalAws;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * Takes the screenshots of the console's pages in the docs ({@code docs/console/*.png}): the operator walkthrough's
 * quarantine ({@link LocalDemo#seed}) on local AWS, the real {@code redrive console} command, and headless Chromium at
 * {@value BrowserConsole#WIDTH} CSS pixels wide, each page captured whole (beyond the window). Run with
 * {@code ./mvnw -o -q -pl platform/redrive-cli exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.redrive.cli.ConsoleScreenshots -Dexec.args=docs/console} from the repository's root.
 */
public final class ConsoleScreenshots {

    private ConsoleScreenshots() {}

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "docs/console")
                .toAbsolutePath()
                .normalize();
        Files.createDirectories(dir);
        CliRig rig = new CliRig(LocalAws.shared(), Clock.systemUTC());
        LocalDemo.seed(rig);
        String poison = QuarantineIds.of(CliRig.QUEUE + "-dlq", "demo-message-12");
        QuarantineRecord timeout = rig.record(QuarantineIds.of(CliRig.QUEUE + "-dlq", "demo-message-1"));
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("overview", "/?since=48h");
        pages.put("groups", "/groups");
        pages.put("dead-letters", "/dead-letters?queue=" + CliRig.QUEUE + "&errorType=Timeout");
        pages.put("dead-letter", "/dead-letters/" + poison);
        pages.put("windows", "/windows");
        pages.put("breakers", "/breakers");
        Path state = Files.createTempDirectory("redrive-console-screenshots");
        try (BrowserConsole console = BrowserConsole.open(rig, "--state-dir", state.toString())) {
            for (Map.Entry<String, String> page : pages.entrySet()) {
                console.go(page.getValue());
                if (page.getKey().equals("overview")) {
                    console.awaitElement(".arrivals-chart canvas");
                }
                shoot(console, dir, page.getKey(), page.getValue());
            }
            // A bulk replay's dry run of the Timeout group: the report and the count-then-confirm form.
            console.go("/groups");
            console.all("form.bulk-group").stream()
                    .filter(f -> "Timeout"
                            .equals(f.findElement(By.cssSelector("input[name='groupErrorType']"))
                                    .getAttribute("value")))
                    .findFirst()
                    .orElseThrow()
                    .findElement(By.cssSelector("button[value='replay']"))
                    .click();
            console.awaitElement("#dry-run-tallies");
            shoot(console, dir, "bulk-dry-run", "a dry run of the Timeout group");
            // Edit and retry, opened (a recorded reveal) and checked with a corrected amount.
            console.go("/dead-letters/" + timeout.id() + "/edit");
            console.clickAndLeave("#open button[type='submit']");
            WebElement payload = console.find("#payload");
            String corrected =
                    payload.getDomProperty("value").replaceFirst("\"amountMinor\":\\d+", "\"amountMinor\":1650");
            payload.clear();
            payload.sendKeys(corrected);
            console.clickAndLeave("#check");
            shoot(console, dir, "edit-and-retry", "an edit, checked");
        }
        System.exit(0);
    }

    private static void shoot(BrowserConsole console, Path dir, String name, String what) throws IOException {
        Path png = dir.resolve(name + ".png");
        Files.write(png, fullPage(console));
        System.out.println("wrote " + png + " (" + what + ")");
    }

    /** The whole page as a PNG, captured by Chromium beyond the window's height. */
    private static byte[] fullPage(BrowserConsole console) {
        Map<String, Object> shot = console.browser.executeCdpCommand(
                "Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
        return Base64.getDecoder().decode((String) shot.get("data"));
    }
}
