package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.localstack.browser.HeadlessChromium;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser (headless Chromium) over local AWS: its pages draw with nothing the Content-Security-
 * Policy blocks, a browser without the session gets 401 everywhere, and a write from another origin is refused (403)
 * even carrying the right CSRF token — while the same write from the console's own page goes through.
 */
@LocalAwsTest(resetBeforeEach = true)
class ConsoleInBrowserTest {

    @Test
    void theOverviewAndGroupsRenderAndChartWithNothingBlocked(LocalAws aws) {
        CliRig rig = new CliRig(aws);
        rig.deadLetter("q-b1", Orders.v2("e-b1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(3));
        rig.deadLetter("q-b2", Orders.v2("e-b2", 200), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(2));
        rig.deadLetter("q-b3", Orders.v2("e-b3", 300), FailureClass.PERMANENT, "InvalidRecipient", Duration.ofHours(1));
        try (BrowserConsole console = BrowserConsole.open(rig)) {
            assertThat(console.browser.getCurrentUrl()).isEqualTo(console.origin.toString());
            assertThat(console.find("tr[data-queue='" + CliRig.QUEUE + "'] [data-unresolved]")
                            .getText())
                    .isEqualTo("3");
            // uPlot draws each route's arrivals into a canvas once /api/arrivals answered.
            console.awaitElement(".arrivals-chart canvas");
            assertThat(console.consoleProblems()).isEmpty();

            // The time × class matrix under the chart drills down to exactly the dead letters of its cell.
            console.awaitElement("table.arrivals-matrix");
            assertThat(console.all("table.arrivals-matrix tr[data-class='TRANSIENT'] a[data-count]"))
                    .extracting(e -> e.getText())
                    .containsExactly("1", "1");
            console.clickAndLeave("table.arrivals-matrix tr[data-class='TRANSIENT'] a[data-count]");
            assertThat(console.all("#letters tbody tr"))
                    .extracting(e -> e.getText())
                    .singleElement()
                    .asString()
                    .contains("q-b1");
            assertThat(console.browser.getCurrentUrl()).contains("class=TRANSIENT", "state=all", "from=", "to=");

            console.go("/groups?queue=" + CliRig.QUEUE);
            assertThat(console.text()).contains("Timeout", "InvalidRecipient");
            assertThat(console.all("[data-count]"))
                    .extracting(e -> e.getAttribute("data-count"))
                    .containsExactlyInAnyOrder("2", "1");
            assertThat(console.consoleProblems()).isEmpty();
        }
    }

    @Test
    void aBrowserWithoutTheSessionGets401AndTheOneTimeUrlOpensNothingTwice(LocalAws aws) {
        CliRig rig = new CliRig(aws);
        rig.deadLetter("q-s1", Orders.v2("e-s1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        try (BrowserConsole console = BrowserConsole.open(rig)) {
            assertThat(console.browser.getCurrentUrl())
                    .as("the one-time URL opened the overview")
                    .isEqualTo(console.origin.toString());
            ChromeDriver stranger = HeadlessChromium.start(BrowserConsole.WIDTH, BrowserConsole.HEIGHT);
            try {
                for (String path : new String[] {"/", "/groups", "/dead-letters/q-s1", "/api/arrivals"}) {
                    stranger.get(console.origin.resolve(path).toString());
                    assertThat(stranger.findElement(By.tagName("body")).getText())
                            .as(path)
                            .contains("no console session")
                            .doesNotContain("q-s1", CliRig.QUEUE);
                    assertThat(BrowserConsole.status(stranger, console.origin.resolve(path)))
                            .as(path)
                            .isEqualTo(401);
                }
                stranger.get(console.openUrl.toString());
                assertThat(stranger.findElement(By.tagName("body")).getText())
                        .contains("this one-time URL is used up or wrong");
                stranger.get(console.origin.resolve("/").toString());
                assertThat(BrowserConsole.status(stranger, console.origin.resolve("/")))
                        .isEqualTo(401);
                // The session's own browser still gets the page.
                assertThat(BrowserConsole.status(console.browser, console.origin.resolve("/groups")))
                        .isEqualTo(200);
            } finally {
                stranger.quit();
            }
        }
    }

    @Test
    void aWriteFromAnotherOriginIs403EvenWithTheCsrfTokenAndTheConsolesOwnFormWorks(LocalAws aws) throws Exception {
        CliRig rig = new CliRig(aws);
        rig.deadLetter("q-x1", Orders.v2("e-x1", 100), FailureClass.PERMANENT, "InvalidRecipient", Duration.ofHours(1));
        try (BrowserConsole console = BrowserConsole.open(rig)) {
            console.go("/dead-letters/q-x1");
            String csrf = console.find("meta[name='csrf-token']").getAttribute("content");
            // Another site on this machine (same site as far as SameSite goes: cookies ignore ports, so the session
            // cookie IS sent) whose page posts the archive form with the right token.
            HttpServer evil = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            String page = "<!doctype html><html><body><form id=f method=post action='"
                    + console.origin.resolve("/dead-letters/q-x1/archive") + "'>"
                    + "<input type=hidden name=_csrf value='" + csrf + "'>"
                    + "<input type=hidden name=reason value='archived by a stranger'></form>"
                    + "<script>document.getElementById('f').submit()</script></body></html>";
            evil.createContext("/", exchange -> {
                byte[] body = page.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            evil.start();
            try {
                console.browser.get("http://127.0.0.1:" + evil.getAddress().getPort() + "/");
                console.awaitElement("body");
                new WebDriverWait(console.browser, Duration.ofSeconds(30))
                        .until(d -> d.getCurrentUrl().startsWith(console.origin.toString()));
                assertThat(console.text()).contains("a write must come from this console's own pages");
                assertThat(console.consoleProblems())
                        .as("what the browser logged: the console's answer to the cross-origin post")
                        .singleElement()
                        .asString()
                        .contains("/dead-letters/q-x1/archive", "status of 403");
            } finally {
                evil.stop(0);
            }
            assertThat(rig.record("q-x1").state()).isEqualTo(QuarantineState.QUARANTINED);

            console.go("/dead-letters/q-x1");
            console.find("#archive input[name='reason']").sendKeys("recipient deleted their account");
            console.clickAndLeave("#archive button[type='submit']");
            new WebDriverWait(console.browser, Duration.ofSeconds(30))
                    .until(HeadlessChromium.textShown(By.id("state"), "ARCHIVED"::equals));
            assertThat(rig.record("q-x1").state()).isEqualTo(QuarantineState.ARCHIVED);
            var audit = rig.record("q-x1").audit();
            assertThat(audit.get(audit.size() - 1).actor().name()).isEqualTo("ada");
            assertThat(audit.get(audit.size() - 1).reason()).contains("recipient deleted their account");
            assertThat(console.consoleProblems()).isEmpty();
        }
    }
}
