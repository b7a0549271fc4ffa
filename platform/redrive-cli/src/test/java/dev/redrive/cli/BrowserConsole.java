package dev.redrive.cli;

import static org.awaitility.Awaitility.await;

import dev.redrive.localstack.browser.HeadlessChromium;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import picocli.CommandLine;

/**
 * The console as an operator meets it, for browser tests: the real {@code redrive console} command, run in-process over
 * a {@link CliRig}'s local AWS (its settings, routes and actor), and a headless Chromium that has opened the printed
 * one-time URL. {@link #close()} stops the command as Ctrl-C does and leaves the browser blank.
 *
 * <p>The browser is this test JVM's one headless Chromium ({@link #sharedBrowser()}): starting one costs seconds, and
 * every console opens in it as in a fresh one, with no cookie (so no session of an earlier console), nothing logged
 * and a blank page. A test that needs a second, separate browser (a stranger without the session) starts its own.
 */
final class BrowserConsole implements AutoCloseable {

    private static final Pattern OPEN_URL =
            Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/open\\?token=[A-Za-z0-9_-]{43}");

    /** The window the tests browse in, a common laptop size. */
    static final int WIDTH = 1366;

    static final int HEIGHT = 900;

    final CliRig rig;
    final ChromeDriver browser;
    final URI origin;
    /** The one-time URL the command printed (used up: the browser opened it). */
    final URI openUrl;

    private final ExecutorService runner;
    private final Future<Integer> command;
    private final StringWriter out;

    private BrowserConsole(
            CliRig rig,
            ChromeDriver browser,
            URI origin,
            URI openUrl,
            ExecutorService runner,
            Future<Integer> command,
            StringWriter out) {
        this.rig = rig;
        this.browser = browser;
        this.origin = origin;
        this.openUrl = openUrl;
        this.runner = runner;
        this.command = command;
        this.out = out;
    }

    /**
     * Runs {@code redrive console --actor ada} plus {@code options} over {@code rig}, waits for its one-time URL and
     * opens it in a new headless browser, which then holds the session.
     */
    static BrowserConsole open(CliRig rig, String... options) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ExecutorService runner = Executors.newSingleThreadExecutor(r -> new Thread(r, "redrive-console-under-test"));
        List<String> args = new ArrayList<>(List.of("console", "--actor", "ada"));
        args.addAll(List.of(options));
        Future<Integer> command = runner.submit(() -> {
            try (RedriveCli root = new RedriveCli(CliContext.of(rig.env, rig.clock, "os-user"))) {
                CommandLine cl = RedriveCli.commandLine(root);
                cl.setOut(new PrintWriter(out, true));
                cl.setErr(new PrintWriter(err, true));
                return cl.execute(args.toArray(String[]::new));
            }
        });
        URI open;
        try {
            await().atMost(Duration.ofSeconds(60))
                    .failFast("redrive console ended: " + err, command::isDone)
                    .until(() -> OPEN_URL.matcher(out.toString()).find());
            Matcher m = OPEN_URL.matcher(out.toString());
            m.find();
            open = URI.create(m.group());
        } catch (RuntimeException e) {
            runner.shutdownNow();
            throw e;
        }
        ChromeDriver browser;
        try {
            browser = sharedBrowser();
        } catch (RuntimeException e) {
            runner.shutdownNow();
            throw e;
        }
        URI origin = open.resolve("/");
        BrowserConsole console = new BrowserConsole(rig, browser, origin, open, runner, command, out);
        browser.get(open.toString());
        return console;
    }

    /**
     * This JVM's one headless Chromium for consoles, started at first use and quit when the JVM ends, handed out blank:
     * on {@code about:blank}, its cookies and the sites' storage cleared, what it logged so far read and dropped.
     */
    static synchronized ChromeDriver sharedBrowser() {
        if (shared != null) {
            try {
                blank(shared);
                return shared;
            } catch (WebDriverException e) {
                // An earlier test left it unusable (crashed, hung on a dialog): this test gets a new one, and the
                // failure is that earlier test's to report, not this one's.
                System.err.println("the shared headless Chromium is unusable ("
                        + e.getMessage().lines().findFirst().orElse("") + "): starting a new one");
                shared.quit();
                shared = null;
            }
        }
        ChromeDriver started = HeadlessChromium.start(WIDTH, HEIGHT);
        Runtime.getRuntime().addShutdownHook(new Thread(started::quit, "headless-chromium-quit"));
        blank(started);
        shared = started;
        return shared;
    }

    private static ChromeDriver shared;

    /** As a new browser is: a blank page, no cookie, no site storage, nothing logged. */
    private static void blank(ChromeDriver browser) {
        browser.get("about:blank");
        browser.executeCdpCommand("Network.clearBrowserCookies", Map.of());
        HeadlessChromium.consoleProblems(browser); // read, so the next console's problems are its own
    }

    /** What the command printed (its one-time URL among it). */
    String printed() {
        return out.toString();
    }

    /** Browses to {@code pathAndQuery} on the console. */
    void go(String pathAndQuery) {
        browser.get(origin.resolve(pathAndQuery).toString());
    }

    /**
     * The HTTP status {@code browser} gets for a GET of {@code url} from the page it shows (a same-origin fetch with
     * its cookies): what a browser tab asking the console would get.
     */
    static long status(ChromeDriver browser, URI url) {
        return (Long) browser.executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "fetch(arguments[0], {credentials: 'same-origin', redirect: 'manual'})"
                        + ".then(r => done(r.status), e => done(-1));",
                url.toString());
    }

    /** The page's text. */
    String text() {
        return browser.findElement(By.tagName("body")).getText();
    }

    WebElement find(String css) {
        return browser.findElement(By.cssSelector(css));
    }

    List<WebElement> all(String css) {
        return browser.findElements(By.cssSelector(css));
    }

    /** Waits (up to 30 s) until {@code css} matches an element, and returns it. */
    WebElement awaitElement(String css) {
        return new WebDriverWait(browser, Duration.ofSeconds(30))
                .until(d ->
                        d.findElements(By.cssSelector(css)).stream().findFirst().orElse(null));
    }

    /** Clicks {@code css} (a submit button, a link) and waits until the browser has left the page it was on. */
    void clickAndLeave(String css) {
        WebElement page = browser.findElement(By.tagName("html"));
        find(css).click();
        new WebDriverWait(browser, Duration.ofSeconds(30)).until(HeadlessChromium.pageLeft(page));
    }

    /** Content-Security-Policy violations, script errors and failed loads the browser reported since the last call. */
    List<String> consoleProblems() {
        return HeadlessChromium.consoleProblems(browser);
    }

    @Override
    public void close() {
        try {
            // the console's site data goes with it, as a quit browser's would (its cookies go in blank)
            browser.executeCdpCommand(
                    "Storage.clearDataForOrigin",
                    Map.of("origin", "http://127.0.0.1:" + origin.getPort(), "storageTypes", "all"));
            blank(browser);
        } finally {
            runner.shutdownNow();
            try {
                if (!runner.awaitTermination(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("redrive console did not stop within 30 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    boolean commandEnded() {
        return command.isDone();
    }
}
