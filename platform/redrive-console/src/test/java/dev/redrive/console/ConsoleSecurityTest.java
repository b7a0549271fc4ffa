package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The console's security, over HTTP against the real server on 127.0.0.1 and a free port: the one-time token, the
 * session, the write checks (CSRF token, same origin, read-only), the Host check and the headers on every answer.
 */
class ConsoleSecurityTest {

    private ConsoleRig rig = new ConsoleRig();
    private final String id = rig.seed(
                    ConsoleRig.ORDERS,
                    1,
                    FailureClass.PERMANENT,
                    "InvalidRecipient",
                    QuarantineState.QUARANTINED,
                    Duration.ofHours(1))
            .get(0);

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void bindsTheLoopbackOnAFreePort() {
        assertThat(rig.server.origin().getHost()).isEqualTo("127.0.0.1");
        assertThat(rig.server.port()).isPositive();
        assertThat(ConsoleOptions.loopback().loopbackOnly()).isTrue();
        assertThat(new ConsoleOptions("0.0.0.0", 0, false).loopbackOnly()).isFalse();
    }

    @Test
    void withoutASessionEveryPathIs401StaticFilesToo() {
        for (String path : List.of(
                "/", "/groups", "/dead-letters", "/dead-letters/" + id, "/assets/console.css", "/no-such-page")) {
            HttpResponse<String> r = rig.get(path, null);
            assertThat(r.statusCode()).as("GET %s without a session", path).isEqualTo(401);
            assertThat(r.body()).doesNotContain(id);
        }
        assertThat(rig.get("/", "redrive_console_" + rig.server.port() + "=forged")
                        .statusCode())
                .as("a made-up session")
                .isEqualTo(401);
        assertThat(rig.post("/dead-letters/" + id + "/archive", "reason=x", "Origin", rig.origin())
                        .statusCode())
                .isEqualTo(401);
    }

    @Test
    void theOneTimeTokenOpensOneSessionOnce() {
        URI open = rig.server.openUri();
        HttpResponse<String> wrong =
                rig.send(HttpRequest.newBuilder(rig.uri("/open?token=guessed")).GET());
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();

        HttpResponse<String> opened = rig.send(HttpRequest.newBuilder(open).GET());
        assertThat(opened.statusCode()).isEqualTo(303);
        assertThat(opened.headers().firstValue("Location")).hasValue("/");
        String setCookie = opened.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie)
                .startsWith("redrive_console_" + rig.server.port() + "=")
                .containsIgnoringCase("HttpOnly")
                .containsIgnoringCase("SameSite=Strict")
                .containsIgnoringCase("Path=/");
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        assertThat(rig.get("/", cookie).statusCode()).isEqualTo(200);

        HttpResponse<String> again = rig.send(HttpRequest.newBuilder(open).GET());
        assertThat(again.statusCode()).as("the same one-time URL a second time").isEqualTo(401);
        assertThat(again.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(rig.server.openUri().getQuery()).isEqualTo("token=");
    }

    @Test
    void aWriteNeedsTheCsrfTokenAndTheConsolesOwnOrigin() {
        String cookie = rig.openSession();
        String csrf = rig.csrf(cookie);
        String archive = "/dead-letters/" + id + "/archive";

        assertThat(rig.post(archive, "reason=dup", "Cookie", cookie, "Origin", rig.origin())
                        .statusCode())
                .as("no CSRF token")
                .isEqualTo(403);
        assertThat(rig.post(archive, "reason=dup&_csrf=wrong", "Cookie", cookie, "Origin", rig.origin())
                        .statusCode())
                .as("a wrong CSRF token")
                .isEqualTo(403);
        assertThat(rig.post(archive, "reason=dup&_csrf=" + csrf, "Cookie", cookie, "Origin", "http://evil.example")
                        .statusCode())
                .as("a cross-origin write, even with the token")
                .isEqualTo(403);
        assertThat(rig.post(archive, "reason=dup&_csrf=" + csrf, "Cookie", cookie, "Origin", "null")
                        .statusCode())
                .as("an opaque origin")
                .isEqualTo(403);
        assertThat(rig.post(archive, "reason=dup&_csrf=" + csrf, "Cookie", cookie, "Referer", "http://evil.example/")
                        .statusCode())
                .as("no Origin, a foreign Referer")
                .isEqualTo(403);
        assertThat(rig.post(archive, "reason=dup&_csrf=" + csrf, "Cookie", cookie)
                        .statusCode())
                .as("neither Origin nor Referer")
                .isEqualTo(403);
        assertThat(rig.operator.show(id).orElseThrow().state())
                .as("nothing was written")
                .isEqualTo(QuarantineState.QUARANTINED);

        HttpResponse<String> done = rig.post(
                archive,
                "reason=duplicate+of+an+applied+order&_csrf=" + csrf,
                "Cookie",
                cookie,
                "Origin",
                rig.origin());
        assertThat(done.statusCode()).isEqualTo(303);
        QuarantineRecord archived = rig.operator.show(id).orElseThrow();
        assertThat(archived.state()).isEqualTo(QuarantineState.ARCHIVED);
        AuditEntry last = archived.audit().get(archived.audit().size() - 1);
        assertThat(last.actor()).as("the operator's own identity acts").isEqualTo(ConsoleRig.OPERATOR);
        assertThat(last.reason()).contains("duplicate of an applied order");
    }

    @Test
    void theTokenMayComeInAHeaderAndTheOriginAsASameOriginReferer() {
        String cookie = rig.openSession();
        String csrf = rig.csrf(cookie);
        HttpResponse<String> done = rig.post(
                "/dead-letters/" + id + "/archive",
                "reason=tested",
                "Cookie",
                cookie,
                "X-CSRF-Token",
                csrf,
                "Referer",
                rig.origin() + "/dead-letters/" + id);
        assertThat(done.statusCode()).isEqualTo(303);
        assertThat(rig.operator.show(id).orElseThrow().state()).isEqualTo(QuarantineState.ARCHIVED);
    }

    @Test
    void anArchiveNeedsAReason() {
        String cookie = rig.openSession();
        String csrf = rig.csrf(cookie);
        assertThat(rig.post(
                                "/dead-letters/" + id + "/archive",
                                "reason=+&_csrf=" + csrf,
                                "Cookie",
                                cookie,
                                "Origin",
                                rig.origin())
                        .statusCode())
                .isEqualTo(400);
        assertThat(rig.operator.show(id).orElseThrow().state()).isEqualTo(QuarantineState.QUARANTINED);
    }

    @Test
    void signingOutEndsTheSession() {
        String cookie = rig.openSession();
        String csrf = rig.csrf(cookie);
        assertThat(rig.post("/logout", "_csrf=" + csrf, "Cookie", cookie, "Origin", rig.origin())
                        .statusCode())
                .isEqualTo(200);
        assertThat(rig.get("/", cookie).statusCode()).isEqualTo(401);
    }

    @Test
    void aReadOnlyConsoleRefusesEveryWriteAndShowsNoWriteControl() {
        rig.close();
        rig = new ConsoleRig(new ConsoleOptions(ConsoleOptions.LOOPBACK, 0, true));
        String readOnlyId = rig.seed(
                        ConsoleRig.ORDERS,
                        1,
                        FailureClass.PERMANENT,
                        "InvalidRecipient",
                        QuarantineState.QUARANTINED,
                        Duration.ofHours(1))
                .get(0);
        String cookie = rig.openSession();
        String csrf = rig.csrf(cookie);
        HttpResponse<String> refused = rig.post(
                "/dead-letters/" + readOnlyId + "/archive",
                "reason=dup&_csrf=" + csrf,
                "Cookie",
                cookie,
                "Origin",
                rig.origin());
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(rig.operator.show(readOnlyId).orElseThrow().state()).isEqualTo(QuarantineState.QUARANTINED);

        for (String path : List.of("/", "/groups", "/dead-letters", "/dead-letters/" + readOnlyId)) {
            Document page = rig.page(path, cookie);
            assertThat(page.select("form[method=post]"))
                    .as("write controls on %s", path)
                    .isEmpty();
            assertThat(page.getElementById("read-only"))
                    .as("the read-only badge on %s", path)
                    .isNotNull();
        }
        // the same page of a read-write console has the archive form: the check above can fail
        try (ConsoleRig writable = new ConsoleRig()) {
            String other = writable.seed(
                            ConsoleRig.ORDERS,
                            1,
                            FailureClass.PERMANENT,
                            "InvalidRecipient",
                            QuarantineState.QUARANTINED,
                            Duration.ofHours(1))
                    .get(0);
            Document page = writable.page("/dead-letters/" + other, writable.openSession());
            assertThat(page.select("form#archive[method=post]")).hasSize(1);
        }
    }

    @Test
    void aRequestForAnotherHostIsRefused() throws IOException {
        String cookie = rig.openSession();
        assertThat(rawStatus("evil.example:" + rig.server.port(), cookie))
                .as("DNS rebinding: a page of another name resolved to 127.0.0.1")
                .isEqualTo(403);
        assertThat(rawStatus("localhost:" + rig.server.port(), cookie)).isEqualTo(200);
        assertThat(rawStatus("127.0.0.1:" + rig.server.port(), cookie)).isEqualTo(200);
    }

    @Test
    void everyAnswerCarriesTheSecurityHeaders() {
        String cookie = rig.openSession();
        for (HttpResponse<String> r :
                List.of(rig.get("/", cookie), rig.get("/", null), rig.get("/assets/console.css", cookie))) {
            String csp = r.headers().firstValue("Content-Security-Policy").orElseThrow();
            assertThat(csp)
                    .contains("default-src 'none'")
                    .contains("script-src 'self'")
                    .contains("style-src 'self'")
                    .contains("frame-ancestors 'none'")
                    .doesNotContain("unsafe-inline")
                    .doesNotContain("unsafe-eval")
                    .doesNotContain("http");
            assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(r.headers().firstValue("Referrer-Policy")).hasValue("same-origin");
            assertThat(r.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        }
    }

    @Test
    void noPageReferencesAnythingOutsideTheConsole() {
        String cookie = rig.openSession();
        Pattern external = Pattern.compile("(?i)(https?:)?//[a-z0-9.\\[\\]:-]+");
        for (String path : List.of(
                "/",
                "/groups",
                "/dead-letters",
                "/dead-letters/" + id,
                "/dead-letters/" + id + "/edit",
                "/groups?state=all")) {
            HttpResponse<String> r = rig.get(path, cookie);
            assertThat(r.statusCode()).isEqualTo(200);
            Matcher m = external.matcher(r.body());
            while (m.find()) {
                assertThat(m.group()).as("an absolute URL in %s", path).startsWith(rig.origin());
            }
            Document page = Jsoup.parse(r.body());
            assertThat(page.select("script:not([src])"))
                    .as("inline scripts in %s", path)
                    .isEmpty();
            assertThat(page.select("style"))
                    .as("inline style elements in %s", path)
                    .isEmpty();
            assertThat(page.select("[style]"))
                    .as("style attributes in %s", path)
                    .isEmpty();
            for (Element e : page.select("[src], [href], form[action]")) {
                String url = e.hasAttr("src") ? e.attr("src") : e.hasAttr("href") ? e.attr("href") : e.attr("action");
                assertThat(url)
                        .as("%s in %s", e.tagName(), path)
                        .startsWith("/")
                        .doesNotStartWith("//");
            }
            assertThat(page.select("link[rel=stylesheet]")).isNotEmpty();
        }
    }

    @Test
    void aPayloadWhoseSensitiveFieldsCannotBeToldIsWithheld() {
        String cookie = rig.openSession();
        String body = rig.get("/dead-letters/" + id, cookie).body();
        assertThat(body).contains(id).doesNotContain("alice@example.com").doesNotContain("4111111111111111");
        assertThat(Jsoup.parse(body).getElementById("payload").text()).startsWith("Withheld whole");
    }

    @Test
    void aFailingOperatorPortIsOneLineNotAStackTrace() {
        OperatorPort failing = (OperatorPort) Proxy.newProxyInstance(
                OperatorPort.class.getClassLoader(), new Class<?>[] {OperatorPort.class}, (proxy, method, args) -> {
                    throw new IllegalStateException("the ledger table redrive-quarantine is unreachable\n\tat x.y");
                });
        try (ConsoleServer broken = ConsoleServer.start(
                ConsoleOptions.loopback(),
                new ConsoleSources(
                        failing, List.of(ConsoleRig.ORDERS), () -> ConsoleRig.OPERATOR, rig.fixture.clock))) {
            HttpResponse<String> opened =
                    rig.send(HttpRequest.newBuilder(broken.openUri()).GET());
            String setCookie = opened.headers().firstValue("Set-Cookie").orElseThrow();
            HttpResponse<String> r =
                    rig.send(HttpRequest.newBuilder(broken.origin().resolve("/groups"))
                            .header("Cookie", setCookie.substring(0, setCookie.indexOf(';')))
                            .GET());
            assertThat(r.statusCode()).isEqualTo(500);
            assertThat(r.body())
                    .isEqualTo("The console could not answer: IllegalStateException: the ledger table "
                            + "redrive-quarantine is unreachable");
            assertThat(r.headers().firstValue("Content-Security-Policy")).isPresent();
            assertThat(rig.send(HttpRequest.newBuilder(broken.origin().resolve("/groups"))
                                    .GET())
                            .statusCode())
                    .as("still 401 without a session")
                    .isEqualTo(401);
        }
    }

    /** The status of GET / sent with this Host header (java.net.http will not send a Host of one's choosing). */
    private int rawStatus(String host, String cookie) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", rig.server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET / HTTP/1.1\r\nHost: " + host + "\r\nCookie: " + cookie + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(status.substring(9, 12));
        }
    }
}
