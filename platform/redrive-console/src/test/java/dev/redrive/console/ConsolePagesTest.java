package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.console.internal.Views;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineState;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The overview and groups pages show exactly what was seeded in the ledger (counted here), through the operator port;
 * filters live in the URL, so a filtered page is a deep link.
 */
class ConsolePagesTest {

    private final ConsoleRig rig = new ConsoleRig();
    private String cookie;
    private List<String> timeouts;

    @BeforeEach
    void seed() {
        timeouts = rig.seed(
                ConsoleRig.ORDERS,
                7,
                FailureClass.TRANSIENT,
                "Timeout",
                QuarantineState.QUARANTINED,
                Duration.ofHours(3));
        rig.seed(
                ConsoleRig.ORDERS,
                4,
                FailureClass.PERMANENT,
                "InvalidRecipient",
                QuarantineState.UNDER_REVIEW,
                Duration.ofHours(2));
        rig.seed(
                ConsoleRig.ORDERS,
                2,
                FailureClass.SCHEMA,
                "OutdatedVersion",
                QuarantineState.QUARANTINED,
                Duration.ofDays(3));
        rig.seed(
                ConsoleRig.ORDERS, 5, FailureClass.TRANSIENT, "Timeout", QuarantineState.ARCHIVED, Duration.ofHours(1));
        rig.seed(
                ConsoleRig.PAYMENTS,
                3,
                FailureClass.TRANSIENT,
                "Throttled",
                QuarantineState.QUARANTINED,
                Duration.ofMinutes(30));
        cookie = rig.openSession();
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void theOverviewCountsEachRoutesDeadLetters() {
        Document page = rig.page("/", cookie);
        Element orders = page.selectFirst("#routes tr[data-queue=orders]");
        Element payments = page.selectFirst("#routes tr[data-queue=payments]");
        assertThat(unresolved(orders)).isEqualTo(13);
        assertThat(unresolved(payments)).isEqualTo(3);
        assertThat(counts(orders, "data-state"))
                .containsExactlyInAnyOrderEntriesOf(Map.of("QUARANTINED", 9L, "UNDER_REVIEW", 4L, "ARCHIVED", 5L));
        // arrivals over the last 24h (the default) leave out the two that arrived 3 days ago
        assertThat(counts(orders, "data-class"))
                .containsEntry("TRANSIENT", 12L)
                .containsEntry("PERMANENT", 4L)
                .containsEntry("SCHEMA", 0L);
        assertThat(orders.select("a[href^=/dead-letters/]").text())
                .as("oldest unresolved")
                .isEqualTo("3d");
        assertThat(counts(rig.page("/?since=7d", cookie).selectFirst("#routes tr[data-queue=orders]"), "data-class"))
                .as("arrivals over 7 days, from the URL")
                .containsEntry("SCHEMA", 2L);
        assertThat(rig.get("/?since=soon", cookie).statusCode()).isEqualTo(400);
    }

    @Test
    void aBucketsDrillDownListsExactlyTheDeadLettersItCounts() throws Exception {
        JsonNode m = new ObjectMapper()
                .readTree(
                        rig.get("/api/arrivals?queue=orders&since=24h", cookie).body());
        long step = m.get("step").asLong();
        for (String c : List.of("TRANSIENT", "PERMANENT")) {
            for (Map.Entry<Integer, Long> cell : row(m, c).entrySet()) {
                Instant from =
                        Instant.ofEpochSecond(m.get("times").get(cell.getKey()).asLong());
                Document listed = rig.page(
                        "/dead-letters?queue=orders&state=all&class=" + c + "&from=" + from + "&to="
                                + from.plusSeconds(step),
                        cookie);
                assertThat(listed.select("#letters tbody tr"))
                        .as(c + " in the bucket from " + from)
                        .hasSize(cell.getValue().intValue());
            }
        }
        HttpResponse<String> bad = rig.get("/dead-letters?queue=orders&from=yesterday", cookie);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("from must be an instant such as 2026-12-06T10:00:00Z, not 'yesterday'");
    }

    @Test
    void theArrivalsMatrixCountsByClassAndHourWhatTheOverviewTotals() throws Exception {
        HttpResponse<String> r = rig.get("/api/arrivals?queue=orders&since=24h", cookie);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        JsonNode m = new ObjectMapper().readTree(r.body());
        assertThat(m.get("step").asLong()).isEqualTo(3_600);
        assertThat(m.get("start").asLong())
                .isEqualTo(ConsoleRig.NOW.minus(Duration.ofHours(24)).getEpochSecond());
        assertThat(m.get("times")).hasSize(24);
        assertThat(row(m, "TRANSIENT"))
                .as("7 arrived 3h ago, 5 an hour ago")
                .containsEntry(21, 7L)
                .containsEntry(23, 5L)
                .hasSize(2);
        assertThat(row(m, "PERMANENT")).containsExactly(Map.entry(22, 4L));
        assertThat(row(m, "SCHEMA")).as("3 days ago is outside the period").isEmpty();
        assertThat(row(m, "POISON")).isEmpty();

        Map<String, Long> overview =
                counts(rig.page("/", cookie).selectFirst("#routes tr[data-queue=orders]"), "data-class");
        for (String c : overview.keySet()) {
            assertThat(row(m, c).values().stream().mapToLong(Long::longValue).sum())
                    .as(c)
                    .isEqualTo(overview.get(c));
        }
        assertThat(rig.get("/api/arrivals?queue=unknown", cookie).statusCode()).isEqualTo(400);
        assertThat(rig.get("/api/arrivals?queue=orders", null).statusCode()).isEqualTo(401);
    }

    @Test
    void everyScriptAndStyleAPageNamesIsServedByTheConsole() {
        Document overview = rig.page("/", cookie);
        List<String> assets = new ArrayList<>(overview.select("script[src]").eachAttr("src"));
        assets.addAll(overview.select("link[rel=stylesheet]").eachAttr("href"));
        assertThat(assets)
                .contains("/webjars/uplot/" + Views.UPLOT_VERSION + "/dist/uPlot.iife.min.js", "/assets/overview.js");
        for (String asset : assets) {
            HttpResponse<String> served = rig.get(asset, cookie);
            assertThat(served.statusCode()).as(asset).isEqualTo(200);
            assertThat(served.body()).as(asset).isNotBlank();
            assertThat(served.headers().firstValue("Content-Type").orElseThrow())
                    .as(asset)
                    .containsAnyOf("javascript", "text/css");
            assertThat(rig.get(asset, null).statusCode())
                    .as(asset + " without a session")
                    .isEqualTo(401);
        }
        assertThat(overview.select(".arrivals-chart").eachAttr("data-src"))
                .containsExactly("/api/arrivals?queue=orders&since=24h", "/api/arrivals?queue=payments&since=24h");
    }

    @Test
    void theGroupsPageGroupsByErrorTypeAndReasonAsTheCliDoes() {
        Document page = rig.page("/groups", cookie);
        assertThat(page.getElementById("total").text()).isEqualTo("16");
        assertThat(groupCounts(page))
                .containsExactly(
                        Map.entry("Timeout", 7L),
                        Map.entry("InvalidRecipient", 4L),
                        Map.entry("Throttled", 3L),
                        Map.entry("OutdatedVersion", 2L));
        Element timeout = page.select("#groups tbody tr").get(0);
        assertThat(timeout.select("td").get(1).text()).isEqualTo("TRANSIENT");
        assertThat(timeout.select("td").get(3).text()).isEqualTo("Timeout from the provider");
        assertThat(timeout.selectFirst("a[href^=/dead-letters/q-]").text())
                .as("the sample is the oldest member")
                .isEqualTo(timeouts.get(0));

        Document all = rig.page("/groups?state=all&queue=orders", cookie);
        assertThat(all.getElementById("total").text()).isEqualTo("18");
        assertThat(groupCounts(all)).contains(Map.entry("Timeout", 12L)).hasSize(3);
        assertThat(all.selectFirst("select[name=queue] option[selected]").val())
                .as("the filter form shows the URL's filter")
                .isEqualTo("orders");

        Document transientOnly = rig.page("/groups?class=TRANSIENT", cookie);
        assertThat(groupCounts(transientOnly)).containsExactly(Map.entry("Timeout", 7L), Map.entry("Throttled", 3L));
        assertThat(rig.page("/groups?olderThan=1d", cookie)
                        .getElementById("total")
                        .text())
                .isEqualTo("2");
        assertThat(rig.get("/groups?class=SOMETIMES", cookie).statusCode()).isEqualTo(400);
        assertThat(rig.get("/groups?state=LOST", cookie).statusCode()).isEqualTo(400);
    }

    @Test
    void aGroupDrillsDownToItsDeadLettersThroughADeepLink() {
        Document groups = rig.page("/groups?queue=orders", cookie);
        String link = groups.selectFirst("#groups a[data-count=7]").attr("href");
        assertThat(link).isEqualTo("/dead-letters?queue=orders&errorType=Timeout");
        Document letters = rig.page(link, cookie);
        assertThat(letters.getElementById("total").text()).isEqualTo("7");
        assertThat(letters.select("#letters tbody tr a").eachText()).containsExactlyElementsOf(timeouts);
    }

    @Test
    void aDeadLettersPageShowsItsTimeline() {
        Document page = rig.page("/dead-letters/" + timeouts.get(0), cookie);
        assertThat(page.getElementById("state").text()).isEqualTo("QUARANTINED");
        assertThat(page.select("#timeline tbody tr").eachAttr("data-kind"))
                .containsExactly("failure", "failure", "arrival");
        assertThat(page.select("#timeline tbody td").eachText()).contains("automation", "arrived");
        assertThat(rig.get("/dead-letters/q-none", cookie).statusCode()).isEqualTo(404);
    }

    /** The non-zero cells of one class's row of the matrix, by bucket. */
    private static Map<Integer, Long> row(JsonNode matrix, String failureClass) {
        Map<Integer, Long> cells = new java.util.TreeMap<>();
        JsonNode row = matrix.get("counts").get(failureClass);
        for (int i = 0; i < row.size(); i++) {
            if (row.get(i).asLong() != 0) {
                cells.put(i, row.get(i).asLong());
            }
        }
        return cells;
    }

    private static long unresolved(Element route) {
        return Long.parseLong(route.selectFirst("a[data-unresolved]").attr("data-unresolved"));
    }

    private static Map<String, Long> counts(Element route, String attribute) {
        return route.select("li[" + attribute + "]").stream()
                .collect(Collectors.toMap(
                        li -> li.attr(attribute),
                        li -> Long.parseLong(li.selectFirst("a").text())));
    }

    private static List<Map.Entry<String, Long>> groupCounts(Document page) {
        return page.select("#groups tbody tr").stream()
                .map(tr -> Map.entry(
                        tr.select("td").get(2).text(),
                        Long.parseLong(tr.select("td").get(0).text())))
                .toList();
    }
}
