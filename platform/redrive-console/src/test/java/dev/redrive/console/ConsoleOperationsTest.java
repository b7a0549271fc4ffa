package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.replay.MaintenanceWindow;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The windows, breakers and saved views pages over HTTP, on core's fakes with two shared breakers: every action goes
 * through the operator port as the operator, and every refusal is the port's message on the page, never a 500.
 */
class ConsoleOperationsTest {

    static final String EMAIL = "email-provider";
    static final String REVENUE = "revenue-store";

    private final Path state = ConsoleRig.temporaryStateDir();
    private final ConsoleRig rig =
            new ConsoleRig(ConsoleOptions.loopback().withStateDir(state), List.of(EMAIL, REVENUE));
    private String cookie;
    private String csrf;

    @BeforeEach
    void open() {
        cookie = rig.openSession();
        csrf = rig.csrf(cookie);
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    private HttpResponse<String> post(String path, String... fields) {
        StringBuilder form = new StringBuilder("_csrf=" + csrf);
        for (int i = 0; i < fields.length; i += 2) {
            form.append('&')
                    .append(fields[i])
                    .append('=')
                    .append(URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
        }
        return rig.post(path, form.toString(), "Cookie", cookie, "Origin", rig.origin());
    }

    private static Document html(HttpResponse<String> r) {
        return Jsoup.parse(r.body());
    }

    @Test
    void aWindowForAMistypedDependencyIsRefusedNamingTheKnownOnesAndTheFormIsKept() {
        HttpResponse<String> refused =
                post("/windows", "dependency", "emial-provider", "start", "now", "duration", "2h", "reason", "CHG-1");

        assertThat(refused.statusCode()).isEqualTo(400);
        Document page = html(refused);
        assertThat(page.selectFirst("#error").text())
                .isEqualTo("unknown dependency 'emial-provider': did you mean 'email-provider'? Known: "
                        + "email-provider, revenue-store (the shared circuit breakers, the maintenance windows, the "
                        + "dead letters' failures)");
        assertThat(page.selectFirst("#add-window input[name=dependency]").val()).isEqualTo("emial-provider");
        assertThat(page.selectFirst("#add-window input[name=reason]").val()).isEqualTo("CHG-1");
        assertThat(rig.operator.windows()).isEmpty();
    }

    @Test
    void aWindowIsAddedAsTheOperatorThenHoldsItsBreakerThenIsRemoved() {
        Document empty = rig.page("/windows", cookie);
        assertThat(empty.select("#dependencies option").eachAttr("value")).containsExactly(EMAIL, REVENUE);

        HttpResponse<String> added = post(
                "/windows", "dependency", EMAIL, "start", "now", "duration", "2h", "reason", "CHG-7 vendor notice");

        assertThat(added.statusCode()).as(added.body()).isEqualTo(303);
        MaintenanceWindow w = rig.operator.windows().get(0);
        assertThat(rig.operator.windows()).hasSize(1);
        assertThat(w.dependency()).isEqualTo(EMAIL);
        assertThat(w.start()).isEqualTo(ConsoleRig.NOW);
        assertThat(w.end()).isEqualTo(ConsoleRig.NOW.plus(Duration.ofHours(2)));
        assertThat(w.approvedBy()).isEqualTo(ConsoleRig.OPERATOR.name());
        assertThat(w.holdsBreaker()).isFalse();
        assertThat(rig.operator.breakers().get(EMAIL).held()).isFalse();
        assertThat(added.headers().firstValue("Location")).hasValue("/windows?added=" + w.id());
        Document listed = rig.page("/windows?added=" + w.id(), cookie);
        assertThat(listed.selectFirst("#message").text()).isEqualTo("Added window " + w.id() + ".");
        assertThat(listed.select("#windows tbody tr")).hasSize(1);
        assertThat(listed.selectFirst("#windows tr[data-window=" + w.id() + "] td.holds")
                        .text())
                .isEqualTo("no");
        assertThat(listed.select("#windows tr[data-window=" + w.id() + "] form.hold"))
                .hasSize(1);

        HttpResponse<String> held = post("/windows/" + w.id() + "/hold");

        assertThat(held.statusCode()).as(held.body()).isEqualTo(303);
        BreakerState breaker = rig.operator.breakers().get(EMAIL);
        assertThat(breaker.status()).isEqualTo(BreakerState.Status.OPEN);
        assertThat(breaker.held()).isTrue();
        assertThat(breaker.openUntil()).isEqualTo(w.end());
        Document holding = rig.page(held.headers().firstValue("Location").orElseThrow(), cookie);
        assertThat(holding.selectFirst("#message").text())
                .startsWith("The email-provider circuit breaker is held OPEN until 2026-11-29 14:00:00Z");
        assertThat(holding.selectFirst("#windows tr[data-window=" + w.id() + "] td.holds")
                        .text())
                .isEqualTo("yes");
        assertThat(holding.select("#windows form.hold"))
                .as("held already: no hold button")
                .isEmpty();

        HttpResponse<String> removed = post("/windows/" + w.id() + "/remove");

        assertThat(removed.statusCode()).isEqualTo(303);
        assertThat(rig.operator.windows()).isEmpty();
        assertThat(rig.operator.breakers().get(EMAIL).openUntil())
                .as("the hold ends now: the next call probes")
                .isEqualTo(ConsoleRig.NOW);
        assertThat(rig.page("/windows", cookie).select("#no-windows")).hasSize(1);
    }

    @Test
    void holdingOrRemovingAWindowThatIsNotThereIsTheMessageNotA500() {
        post("/windows", "id", "chg-1", "dependency", REVENUE, "start", "now", "duration", "1h", "reason", "r");
        post(
                "/windows",
                "id",
                "chg-later",
                "dependency",
                REVENUE,
                "start",
                "2026-11-30T00:00:00Z",
                "end",
                "2026-11-30T01:00:00Z",
                "reason",
                "later");
        assertThat(rig.operator.windows()).extracting(MaintenanceWindow::id).containsExactly("chg-1", "chg-later");

        HttpResponse<String> noSuch = post("/windows/chg-2/hold");
        HttpResponse<String> notStarted = post("/windows/chg-later/hold");
        HttpResponse<String> removeTypo = post("/windows/chg-2/remove");
        HttpResponse<String> sameId =
                post("/windows", "id", "chg-1", "dependency", REVENUE, "duration", "1h", "reason", "again");
        HttpResponse<String> badTime =
                post("/windows", "dependency", REVENUE, "start", "tomorrow", "duration", "1h", "reason", "r");

        assertThat(noSuch.statusCode()).isEqualTo(409);
        assertThat(html(noSuch).selectFirst("#error").text()).isEqualTo("no maintenance window with id 'chg-2'");
        assertThat(notStarted.statusCode()).isEqualTo(409);
        assertThat(html(notStarted).selectFirst("#error").text())
                .startsWith("window chg-later runs from 2026-11-30T00:00:00Z to 2026-11-30T01:00:00Z");
        assertThat(removeTypo.statusCode()).isEqualTo(404);
        assertThat(html(removeTypo).selectFirst("#error").text())
                .isEqualTo("unknown maintenance window 'chg-2': did you mean 'chg-1'? Known: chg-1, chg-later");
        assertThat(sameId.statusCode()).isEqualTo(400);
        assertThat(html(sameId).selectFirst("#error").text()).isEqualTo("a window with id 'chg-1' exists already");
        assertThat(badTime.statusCode()).isEqualTo(400);
        assertThat(html(badTime).selectFirst("#error").text()).contains("not 'tomorrow'");
        assertThat(rig.operator.windows()).hasSize(2);
        assertThat(rig.operator.breakers().get(REVENUE).held()).isFalse();
    }

    @Test
    void aHeldBreakerIsShownItsProbeRefusedItsHoldEndedThenProbed() {
        post("/windows", "id", "chg-9", "dependency", EMAIL, "duration", "2h", "hold", "yes", "reason", "CHG-9");
        assertThat(rig.operator.breakers().get(EMAIL).held()).isTrue();

        Document page = rig.page("/breakers", cookie);
        assertThat(page.selectFirst("#breakers tr[data-dependency=email-provider] td.state")
                        .text())
                .isEqualTo("OPEN");
        assertThat(page.selectFirst("#breakers tr[data-dependency=email-provider] td.held")
                        .text())
                .isEqualTo("yes: chg-9");
        assertThat(page.selectFirst("#breakers tr[data-dependency=email-provider] td.open-until")
                        .text())
                .isEqualTo("2026-11-29 14:00:00Z");
        assertThat(page.selectFirst("#breakers tr[data-dependency=revenue-store] td.state")
                        .text())
                .isEqualTo("CLOSED");
        assertThat(page.select("#breakers tr[data-dependency=revenue-store] form"))
                .as("nothing to do")
                .isEmpty();
        assertThat(page.select("table.history[data-dependency=email-provider] tbody tr"))
                .hasSize(rig.operator.breakerHistories().get(EMAIL).size())
                .isNotEmpty();

        HttpResponse<String> probeHeld = post("/breakers/email-provider/probe");
        HttpResponse<String> probeClosed = post("/breakers/revenue-store/probe");
        HttpResponse<String> releaseTypo = post("/breakers/emial-provider/release");

        assertThat(probeHeld.statusCode()).isEqualTo(409);
        assertThat(html(probeHeld).selectFirst("#error").text())
                .isEqualTo("the email-provider breaker is held OPEN until 2026-11-29T14:00:00Z by maintenance windows "
                        + "[chg-9]: their hold ends first");
        assertThat(probeClosed.statusCode()).isEqualTo(409);
        assertThat(html(probeClosed).selectFirst("#error").text())
                .isEqualTo("the revenue-store breaker is CLOSED: calls go through, there is nothing to probe");
        assertThat(releaseTypo.statusCode()).isEqualTo(409);
        assertThat(html(releaseTypo).selectFirst("#error").text())
                .isEqualTo("no circuit breaker of emial-provider is shared here: did you mean 'email-provider'? (the "
                        + "breakers are [email-provider, revenue-store])");
        assertThat(rig.operator.breakers().get(EMAIL).held())
                .as("refusals change nothing")
                .isTrue();

        HttpResponse<String> released = post("/breakers/email-provider/release");

        assertThat(released.statusCode()).isEqualTo(303);
        assertThat(rig.operator.breakers().get(EMAIL).held()).isFalse();
        assertThat(rig.operator.window("chg-9").orElseThrow().holdsBreaker()).isFalse();
        Document after = rig.page(released.headers().firstValue("Location").orElseThrow(), cookie);
        assertThat(after.selectFirst("#message").text())
                .isEqualTo("Released the email-provider circuit breaker: chg-9 no longer holds it (it still approves "
                        + "replays); the next call, a consumer's or a replay's, probes.");
        assertThat(after.selectFirst("#breakers tr[data-dependency=email-provider] td.held")
                        .text())
                .isEqualTo("no");

        HttpResponse<String> probed = post("/breakers/email-provider/probe");
        assertThat(probed.statusCode()).isEqualTo(303);
        assertThat(rig.operator.breakerHistories().get(EMAIL).get(0).reason()).contains(ConsoleRig.OPERATOR.name());
    }

    @Test
    void aReadOnlyConsoleShowsNoWindowOrBreakerFormAndRefusesTheirWrites() {
        try (ConsoleRig readOnly = new ConsoleRig(
                new ConsoleOptions(ConsoleOptions.LOOPBACK, 0, true).withStateDir(ConsoleRig.temporaryStateDir()),
                List.of(EMAIL))) {
            String session = readOnly.openSession();
            String token = readOnly.csrf(session);
            readOnly.operator.addWindow(new MaintenanceWindow(
                    "w", EMAIL, ConsoleRig.NOW, ConsoleRig.NOW.plusSeconds(600), "ada", "r", true));

            assertThat(readOnly.page("/windows", session).select("form[method=post]"))
                    .isEmpty();
            assertThat(readOnly.page("/breakers", session).select("form[method=post]"))
                    .isEmpty();
            assertThat(readOnly.page("/breakers", session).select("#breakers tbody tr"))
                    .hasSize(1);
            assertThat(readOnly.post(
                                    "/breakers/email-provider/release",
                                    "_csrf=" + token,
                                    "Cookie",
                                    session,
                                    "Origin",
                                    readOnly.origin())
                            .statusCode())
                    .isEqualTo(403);
            assertThat(readOnly.post(
                                    "/windows/w/remove",
                                    "_csrf=" + token,
                                    "Cookie",
                                    session,
                                    "Origin",
                                    readOnly.origin())
                            .statusCode())
                    .isEqualTo(403);
            assertThat(readOnly.operator.windows()).hasSize(1);
            assertThat(readOnly.operator.breakers().get(EMAIL).held()).isTrue();
        }
    }

    @Test
    void aSavedViewIsTheURLOfTheFiltersKeptPerOperatorListedInTheNavAndDeletable() throws Exception {
        String filters = "/groups?queue=orders&class=TRANSIENT";
        Document groups = rig.page(filters, cookie);
        assertThat(groups.selectFirst("form.save-view input[name=url]").val()).isEqualTo(filters);

        HttpResponse<String> saved = post("/views", "name", "Orders timeouts", "url", filters);

        assertThat(saved.statusCode()).isEqualTo(303);
        assertThat(saved.headers().firstValue("Location")).hasValue(filters);
        assertThat(rig.page("/", cookie).select("header a.saved-view"))
                .singleElement()
                .satisfies(a -> {
                    assertThat(a.text()).isEqualTo("Orders timeouts");
                    assertThat(a.attr("href")).isEqualTo(filters);
                });
        assertThat(Files.readString(state.resolve("saved-views.json")))
                .contains(ConsoleRig.OPERATOR.name())
                .contains("Orders timeouts");

        HttpResponse<String> elsewhere = post("/views", "name", "evil", "url", "https://evil.example/");
        HttpResponse<String> schemeless = post("/views", "name", "evil", "url", "//evil.example/");
        assertThat(elsewhere.statusCode()).isEqualTo(400);
        assertThat(html(elsewhere).selectFirst("#error").text()).startsWith("a saved view is a page of this console");
        assertThat(schemeless.statusCode()).isEqualTo(400);

        // One read-write console per state directory (it locks it for its bulk runs); a read-only one may read it.
        try (ConsoleRig again =
                new ConsoleRig(new ConsoleOptions(ConsoleOptions.LOOPBACK, 0, true).withStateDir(state), List.of())) {
            String other = again.openSession();
            assertThat(again.page("/views", other).select("#views tbody tr"))
                    .as("kept in the state directory: another console run lists it")
                    .hasSize(1);
        }

        HttpResponse<String> deleted = post("/views/delete", "name", "Orders timeouts");
        HttpResponse<String> deletedAgain = post("/views/delete", "name", "Orders timeouts");

        assertThat(deleted.statusCode()).isEqualTo(303);
        assertThat(deletedAgain.statusCode()).isEqualTo(404);
        assertThat(rig.page("/", cookie).select("header a.saved-view")).isEmpty();
        assertThat(rig.page("/views", cookie).select("#no-views")).hasSize(1);
    }
}
