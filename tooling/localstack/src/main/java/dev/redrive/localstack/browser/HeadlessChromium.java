package dev.redrive.localstack.browser;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * A headless Chromium driven by Selenium for browser tests (the console's, the local run report's): Debian's {@code chromium} and {@code chromium-driver}
 * packages ({@code /usr/bin/chromium}, {@code /usr/bin/chromedriver}; {@code REDRIVE_CHROMIUM} and
 * {@code REDRIVE_CHROMEDRIVER} name others). Both paths are given to Selenium, so its manager never downloads a browser
 * or a driver; when either is missing the test fails saying what to install (CI installs them), it never skips.
 */
public final class HeadlessChromium {

    private static final String INSTALL = "install Debian's chromium and chromium-driver "
            + "(apt-get update && apt-get install -y chromium chromium-driver), or name them with REDRIVE_CHROMIUM and "
            + "REDRIVE_CHROMEDRIVER";

    private HeadlessChromium() {}

    /**
     * A new headless browser whose window is {@code width} × {@code height} CSS pixels, with a new profile of its own
     * (Chromium makes a temporary one); quit it when done.
     */
    public static ChromeDriver start(int width, int height) {
        Path browser = executable("REDRIVE_CHROMIUM", "/usr/bin/chromium");
        Path driver = executable("REDRIVE_CHROMEDRIVER", "/usr/bin/chromedriver");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--window-size=" + width + "," + height);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.toFile())
                .usingAnyFreePort()
                .withLogOutput(OutputStream.nullOutputStream())
                .build();
        return new ChromeDriver(service, options);
    }

    /**
     * What the page's console said at level WARNING or above since the last call (a Content-Security-Policy violation,
     * a script error, a failed fetch are all SEVERE there).
     */
    public static List<String> consoleProblems(ChromeDriver driver) {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
                .map(LogEntry::getMessage)
                .toList();
    }

    /**
     * A condition for a {@code WebDriverWait}: the browser has left the page whose {@code html} element is
     * {@code page} (after a click on a link or a submit button). Unlike Selenium's {@code stalenessOf}, it also takes
     * ChromeDriver's other answer for an element of a page being replaced ({@link #goneFromTheDocument}) as the page
     * left, instead of failing on it; any other error still fails the wait.
     */
    public static Function<WebDriver, Boolean> pageLeft(WebElement page) {
        return driver -> orIfGone(
                () -> {
                    page.isEnabled();
                    return false;
                },
                true);
    }

    /**
     * A condition for a {@code WebDriverWait}: an element {@code locator} finds shows a text that {@code wanted}
     * accepts. An element of a page being replaced ({@link #goneFromTheDocument}) counts as not shown yet, so a wait
     * begun just after a click that leaves its page goes on to the next page instead of failing; any other error still
     * fails the wait.
     */
    public static Function<WebDriver, Boolean> textShown(By locator, Predicate<String> wanted) {
        return driver ->
                orIfGone(() -> driver.findElements(locator).stream().anyMatch(e -> wanted.test(e.getText())), false);
    }

    /**
     * What {@code ask} answers of the page, or {@code ifGone} when an element it asks about is no longer in the page
     * ({@link #goneFromTheDocument}: a page being replaced, say); any other error is thrown.
     */
    public static <T> T orIfGone(Supplier<T> ask, T ifGone) {
        try {
            return ask.get();
        } catch (WebDriverException e) {
            if (goneFromTheDocument(e)) {
                return ifGone;
            }
            throw e;
        }
    }

    /**
     * Whether {@code e} says the element asked about is no longer in the page: "stale element reference", as the
     * WebDriver spec answers, or what ChromeDriver answers now and then instead while a page is being replaced
     * ("unknown error: unhandled inspector error" with "Node with given id does not belong to the document" or "No
     * node with given id found"; SeleniumHQ/selenium issues 15401 and 12221).
     */
    public static boolean goneFromTheDocument(WebDriverException e) {
        if (e instanceof StaleElementReferenceException) {
            return true;
        }
        String message = e.getMessage();
        return message != null
                && (message.contains("Node with given id does not belong to the document")
                        || message.contains("No node with given id found"));
    }

    private static Path executable(String variable, String standard) {
        String named = System.getenv(variable);
        Path path = Path.of(named == null || named.isBlank() ? standard : named);
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException("browser tests need " + path + " (" + variable + "), which is "
                    + (Files.exists(path) ? "not executable" : "missing") + ": " + INSTALL);
        }
        return path;
    }
}
