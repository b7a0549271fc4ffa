package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplaySender;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bulk replay and archive in the console, over HTTP on in-memory fakes: a dry run through the operator port freezes
 * exactly the ids it reports; confirming (with a required reason, and an explicit allow for POISON or PERMANENT dead
 * letters) runs exactly those in the background; the run page's JSON tells the progress; and a run the console's
 * closing interrupted is resumed by a console started again over the same state directory, each message sent once.
 */
class BulkRunsTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path stateDir;

    @Test
    void aGroupsDryRunFreezesItsScopeAndADeadLetterArrivingAfterItIsNotReplayed() {
        try (BulkRig rig = new BulkRig(stateDir)) {
            List<String> timeouts = rig.seed(6, FailureClass.TRANSIENT, "Timeout", "");
            List<String> incompatible = rig.seed(2, FailureClass.TRANSIENT, "Timeout", "v0:");
            rig.seed(3, FailureClass.TRANSIENT, "Throttled", "");

            Element group = groupForm(rig.page("/groups"), "Timeout");
            String run = BulkRig.runId(rig.submit(group, "kind", "replay", Map.of()));

            Document dryRun = rig.page("/bulk/runs/" + run);
            assertThat(tallies(dryRun, "#dry-run-tallies")).isEqualTo(Map.of("SENT", 6, "REFUSED", 2));
            assertThat(dryRun.select("#lines tbody tr")).hasSize(8);
            assertThat(dryRun.selectFirst("#confirm-count").text()).isEqualTo("8");
            assertThat(rig.sendCounts()).as("a dry run sends nothing").isEmpty();
            assertThat(timeouts)
                    .allSatisfy(id -> assertThat(rig.record(id).state())
                            .as("a dry run changes nothing")
                            .isEqualTo(QuarantineState.QUARANTINED));

            List<String> late = rig.seed(1, FailureClass.TRANSIENT, "Timeout", "");
            assertThat(groupCount(rig.page("/groups"), "Timeout"))
                    .as("the group has grown")
                    .isEqualTo(9);

            HttpResponse<String> confirmed =
                    rig.submit(dryRun.selectFirst("form#confirm"), "reason", "provider fixed the timeouts", Map.of());
            assertThat(confirmed.statusCode()).as(confirmed.body()).isEqualTo(303);
            JsonNode done = awaitEnd(rig, run);

            assertThat(done.get("phase").asText()).isEqualTo("DONE");
            assertThat(done.get("done").asInt()).isEqualTo(8);
            assertThat(done.get("total").asInt()).isEqualTo(8);
            assertThat(tallies(done)).isEqualTo(Map.of("SENT", 6, "REFUSED", 2));
            Map<String, Integer> expected = new HashMap<>();
            for (int k = 1; k <= 6; k++) {
                expected.put("k" + k + "|x", 1);
            }
            assertThat(rig.sendCounts()).as("the six frozen ones, once each").isEqualTo(expected);
            assertThat(timeouts)
                    .allSatisfy(id -> assertThat(rig.record(id).state()).isEqualTo(QuarantineState.REPLAYED));
            assertThat(incompatible)
                    .allSatisfy(id -> assertThat(rig.record(id).state()).isEqualTo(QuarantineState.ARCHIVED));
            assertThat(rig.record(late.get(0)).state())
                    .as("arrived after the dry run: not in the frozen scope")
                    .isEqualTo(QuarantineState.QUARANTINED);
            assertThat(rig.record(timeouts.get(0)).audit())
                    .extracting(AuditEntry::actor)
                    .contains(BulkRig.OPERATOR);
            assertThat(rig.record(timeouts.get(0)).audit())
                    .extracting(AuditEntry::reason)
                    .anySatisfy(reason -> assertThat(reason).contains("provider fixed the timeouts"));

            Document finished = rig.page("/bulk/runs/" + run);
            assertThat(finished.selectFirst("#phase").text()).isEqualTo("DONE");
            assertThat(tallies(finished, "#tallies")).isEqualTo(Map.of("SENT", 6, "REFUSED", 2));
            assertThat(finished.select("#lines tbody tr")).hasSize(8);
            assertThat(finished.select("form#confirm, form#stop, form#resume")).isEmpty();
            assertNoInlineScriptOrStyle(dryRun);
            assertNoInlineScriptOrStyle(finished);
        }
    }

    @Test
    void confirmingWithoutAReasonIs400AndRunsNothing() {
        try (BulkRig rig = new BulkRig(stateDir)) {
            List<String> ids = rig.seed(3, FailureClass.TRANSIENT, "Timeout", "");
            String run = dryRunSelection(rig, "replay", ids);

            HttpResponse<String> blank = rig.post("/bulk/runs/" + run + "/confirm", List.of(Map.entry("reason", "  ")));

            assertThat(blank.statusCode()).isEqualTo(400);
            assertThat(blank.body())
                    .isEqualTo("a bulk replay needs a reason: type why (it goes into the audit trail of each dead "
                            + "letter); nothing was replayed");
            assertThat(rig.progress(run).get("phase").asText()).isEqualTo("AWAITING_CONFIRMATION");
            assertThat(rig.sendCounts()).isEmpty();
            assertThat(rig.post("/bulk/runs/" + run + "/confirm", List.of()).statusCode())
                    .as("no reason field at all")
                    .isEqualTo(400);
            assertThat(rig.sendCounts()).isEmpty();

            assertThat(rig.post("/bulk/runs/" + run + "/confirm", List.of(Map.entry("reason", "retry")))
                            .statusCode())
                    .isEqualTo(303);
            assertThat(awaitEnd(rig, run).get("phase").asText()).isEqualTo("DONE");
            assertThat(rig.sendCounts()).hasSize(3).containsOnlyKeys("k1|x", "k2|x", "k3|x");
            assertThat(rig.post("/bulk/runs/" + run + "/confirm", List.of(Map.entry("reason", "again")))
                            .statusCode())
                    .as("a run is confirmed once")
                    .isEqualTo(409);
            assertThat(rig.sendCounts().values()).containsOnly(1);
            assertThat(rig.get("/bulk/runs/run-20261129-120000-00000000").statusCode())
                    .isEqualTo(404);
        }
    }

    @Test
    void poisonAndPermanentNeedAnExplicitAllowWithAWarningSayingWhyTheyFailed() {
        try (BulkRig rig = new BulkRig(stateDir)) {
            List<String> transients = rig.seed(2, FailureClass.TRANSIENT, "Timeout", "");
            List<String> poison = rig.seed(1, FailureClass.POISON, "ConsumerCrashed", "");
            String run = dryRunSelection(rig, "replay", List.of(transients.get(0), transients.get(1), poison.get(0)));

            Document page = rig.page("/bulk/runs/" + run);
            assertThat(page.select("#warnings li"))
                    .singleElement()
                    .satisfies(li -> assertThat(li.text())
                            .isEqualTo(poison.get(0) + " failed as POISON (ConsumerCrashed: ConsumerCrashed from the "
                                    + "provider); it fails the same way unless the cause was fixed"));
            assertThat(page.select("form#confirm input[name=allow]"))
                    .extracting(e -> e.attr("value"))
                    .containsExactly("POISON");

            HttpResponse<String> refused =
                    rig.post("/bulk/runs/" + run + "/confirm", List.of(Map.entry("reason", "crash fixed in 1.4.3")));

            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body())
                    .startsWith("refused, nothing replayed: 1 of the 3 dead letter(s) failed as POISON")
                    .contains(poison.get(0) + "  POISON  ConsumerCrashed: ConsumerCrashed from the provider")
                    .contains("tick 'allow POISON'");
            assertThat(rig.sendCounts()).isEmpty();
            assertThat(rig.post(
                                    "/bulk/runs/" + run + "/confirm",
                                    List.of(Map.entry("reason", "x"), Map.entry("allow", "TRANSIENT")))
                            .body())
                    .isEqualTo(
                            "only POISON or PERMANENT need allowing; TRANSIENT dead letters are replayed without it");

            HttpResponse<String> allowed = rig.submit(
                    page.selectFirst("form#confirm")
                            .selectFirst("input[name=allow]")
                            .attr("checked", true)
                            .parents()
                            .select("form#confirm")
                            .first(),
                    "reason",
                    "crash fixed in 1.4.3",
                    Map.of());

            assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(303);
            JsonNode done = awaitEnd(rig, run);
            assertThat(tallies(done)).isEqualTo(Map.of("SENT", 3));
            assertThat(rig.record(poison.get(0)).state()).isEqualTo(QuarantineState.REPLAYED);
            assertThat(rig.page("/bulk/runs/" + run).selectFirst("dl.facts").text())
                    .contains("Allowed POISON");
        }
    }

    @Test
    void aSelectionOfTheDeadLettersPageIsArchivedExactlyAsTicked() {
        try (BulkRig rig = new BulkRig(stateDir)) {
            List<String> ids = rig.seed(5, FailureClass.PERMANENT, "Rule", "");
            Document letters = rig.page("/dead-letters");
            assertThat(letters.select("input[type=checkbox][name=id][form=bulk-selection]"))
                    .hasSize(5);
            letters.selectFirst("input[name=id][value=" + ids.get(1) + "]").attr("checked", true);
            letters.selectFirst("input[name=id][value=" + ids.get(3) + "]").attr("checked", true);

            String run =
                    BulkRig.runId(rig.submit(letters.selectFirst("form#bulk-selection"), "kind", "archive", Map.of()));

            Document dryRun = rig.page("/bulk/runs/" + run);
            assertThat(tallies(dryRun, "#dry-run-tallies")).isEqualTo(Map.of("ARCHIVED", 2));
            assertThat(dryRun.select("#lines tbody tr td:first-child"))
                    .extracting(Element::text)
                    .containsExactly(ids.get(1), ids.get(3));
            assertThat(dryRun.select("#warnings"))
                    .as("the POISON/PERMANENT rule is a replay's")
                    .isEmpty();
            rig.submit(dryRun.selectFirst("form#confirm"), "reason", "rule retired", Map.of());

            assertThat(tallies(awaitEnd(rig, run))).isEqualTo(Map.of("ARCHIVED", 2));
            for (int i = 0; i < ids.size(); i++) {
                assertThat(rig.record(ids.get(i)).state())
                        .as(ids.get(i))
                        .isEqualTo(i == 1 || i == 3 ? QuarantineState.ARCHIVED : QuarantineState.QUARANTINED);
            }
            assertThat(rig.record(ids.get(1)).audit()).last().satisfies(a -> {
                assertThat(a.actor()).isEqualTo(BulkRig.OPERATOR);
                assertThat(a.reason()).isEqualTo("archived by decision: rule retired");
            });
            assertThat(rig.post("/bulk/dry-run", List.of(Map.entry("kind", "replay"), Map.entry("scope", "selection")))
                            .body())
                    .isEqualTo("tick at least one dead letter for a bulk replay; nothing was dry-run");
        }
    }

    @Test
    void aRunInterruptedByTheConsoleGoingAwayIsResumedByTheNextOneAndSendsEachMessageOnce() throws Exception {
        int total = 20;
        int blockedAt = 8;
        CountDownLatch inHand = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger sendCount = new AtomicInteger();
        UnaryOperator<ReplaySender> blockAtTheNth = real -> (queue, body, attributes) -> {
            if (sendCount.incrementAndGet() == blockedAt) {
                inHand.countDown();
                assertThat(awaitLatch(release)).as("released by the test").isTrue();
            }
            return real.send(queue, body, attributes);
        };
        try (BulkRig rig = new BulkRig(ConsoleOptions.loopback().withStateDir(stateDir), blockAtTheNth)) {
            List<String> ids = rig.seed(total, FailureClass.TRANSIENT, "Timeout", "");
            String run =
                    BulkRig.runId(rig.submit(groupForm(rig.page("/groups"), "Timeout"), "kind", "replay", Map.of()));
            rig.post("/bulk/runs/" + run + "/confirm", List.of(Map.entry("reason", "provider back")));
            assertThat(inHand.await(20, TimeUnit.SECONDS))
                    .as("the run reached send " + blockedAt)
                    .isTrue();
            assertThat(rig.progress(run).get("phase").asText()).isEqualTo("RUNNING");

            Thread goingAway = new Thread(rig::close, "console-going-away");
            goingAway.start();
            await().atMost(WAIT)
                    .until(() -> rig.progress(run).get("stopRequested").asBoolean());
            release.countDown();
            goingAway.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(goingAway.isAlive()).isFalse();

            assertThat(rig.sendCounts())
                    .as("the send in hand finished, then the run stopped")
                    .hasSize(blockedAt);
            long replayed = ids.stream()
                    .filter(id -> rig.record(id).state() == QuarantineState.REPLAYED)
                    .count();
            assertThat(replayed).isEqualTo(blockedAt);

            rig.start(); // the console started again over the same state directory
            Document runs = rig.page("/bulk/runs");
            Element unfinished = runs.selectFirst("#unfinished tr[data-run=" + run + "]");
            assertThat(unfinished).as("listed as unfinished").isNotNull();
            assertThat(unfinished.text()).contains("INTERRUPTED").contains(blockedAt + " of " + total);
            Document interrupted = rig.page("/bulk/runs/" + run);
            assertThat(interrupted.selectFirst("#done").text()).isEqualTo(String.valueOf(blockedAt));
            assertThat(interrupted.selectFirst("#failure").text())
                    .isEqualTo("the console stopped while the run was under way");

            HttpResponse<String> resumed = rig.submit(unfinished.selectFirst("form"), "x", "", Map.of());
            assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(303);
            JsonNode done = awaitEnd(rig, run);

            assertThat(done.get("phase").asText()).isEqualTo("DONE");
            assertThat(done.get("done").asInt()).isEqualTo(total);
            assertThat(tallies(done))
                    .as("counts exact: every one sent by this run")
                    .isEqualTo(Map.of("SENT", total));
            assertThat(rig.sendCounts()).hasSize(total);
            assertThat(rig.sendCounts().values())
                    .as("each message sent exactly once")
                    .containsOnly(1);
            assertThat(rig.fixture.sender.sent()).hasSize(total);
            assertThat(ids).allSatisfy(id -> assertThat(rig.record(id).state()).isEqualTo(QuarantineState.REPLAYED));
            assertThat(rig.page("/bulk/runs").select("#unfinished")).isEmpty();
            assertThat(rig.page("/bulk/runs/" + run).selectFirst("dl.facts").text())
                    .contains("Resumed " + BulkRig.OPERATOR.name());
        }
    }

    @Test
    void aRunStoppedByAFailedSendIsResumedAndTheDeadLetterInHandIsSentOnce() {
        int total = 10;
        int failsAt = 4;
        AtomicInteger sendCount = new AtomicInteger();
        UnaryOperator<ReplaySender> failAtTheNth = real -> (queue, body, attributes) -> {
            if (sendCount.incrementAndGet() == failsAt) {
                throw new IllegalStateException("connection reset by the test");
            }
            return real.send(queue, body, attributes);
        };
        try (BulkRig rig = new BulkRig(ConsoleOptions.loopback().withStateDir(stateDir), failAtTheNth)) {
            List<String> ids = rig.seed(total, FailureClass.TRANSIENT, "Timeout", "");
            String run = dryRunSelection(rig, "replay", ids);
            rig.post("/bulk/runs/" + run + "/confirm", List.of(Map.entry("reason", "provider back")));

            JsonNode failed = awaitEnd(rig, run);
            assertThat(failed.get("phase").asText()).isEqualTo("FAILED");
            assertThat(failed.get("done").asInt()).isEqualTo(failsAt - 1);
            assertThat(failed.get("failure").asText())
                    .isEqualTo("stopped by an error on " + ids.get(failsAt - 1)
                            + ": IllegalStateException: connection reset by the test");
            assertThat(rig.record(ids.get(failsAt - 1)).state()).isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);
            assertThat(rig.post("/bulk/runs/" + run + "/stop", List.of()).statusCode())
                    .as("not running")
                    .isEqualTo(409);

            assertThat(rig.post("/bulk/runs/" + run + "/resume", List.of()).statusCode())
                    .isEqualTo(303);
            JsonNode done = awaitEnd(rig, run);

            assertThat(done.get("phase").asText()).isEqualTo("DONE");
            assertThat(tallies(done)).isEqualTo(Map.of("SENT", total));
            assertThat(rig.sendCounts()).hasSize(total);
            assertThat(rig.sendCounts().values()).containsOnly(1);
            assertThat(rig.post("/bulk/runs/" + run + "/resume", List.of()).statusCode())
                    .as("a DONE run does not resume")
                    .isEqualTo(409);
        }
    }

    @Test
    void aReadOnlyConsoleShowsNoBulkControlAndRefusesThem() {
        try (BulkRig rig = new BulkRig(new ConsoleOptions("127.0.0.1", 0, true).withStateDir(stateDir), s -> s)) {
            List<String> ids = rig.seed(2, FailureClass.TRANSIENT, "Timeout", "");

            assertThat(rig.page("/groups").select("form[action=/bulk/dry-run], th:contains(Bulk)"))
                    .isEmpty();
            Document letters = rig.page("/dead-letters");
            assertThat(letters.select("#letters tbody tr")).hasSize(2);
            assertThat(letters.select("input[type=checkbox], form#bulk-selection"))
                    .isEmpty();
            assertThat(letters.select("a[href=/bulk/runs]")).isEmpty();
            assertThat(rig.get("/bulk/runs").statusCode()).isEqualTo(403);
            assertThat(rig.get("/api/bulk/runs/run-20261129-120000-00000000").statusCode())
                    .isEqualTo(403);
            assertThat(rig.post(
                                    "/bulk/dry-run",
                                    List.of(
                                            Map.entry("kind", "replay"),
                                            Map.entry("scope", "selection"),
                                            Map.entry("id", ids.get(0))))
                            .statusCode())
                    .isEqualTo(403);
            assertThat(rig.sendCounts()).isEmpty();
        }
    }

    private static boolean awaitLatch(CountDownLatch latch) {
        try {
            return latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String dryRunSelection(BulkRig rig, String kind, List<String> ids) {
        List<Map.Entry<String, String>> fields = new java.util.ArrayList<>();
        fields.add(Map.entry("kind", kind));
        fields.add(Map.entry("scope", "selection"));
        ids.forEach(id -> fields.add(Map.entry("id", id)));
        return BulkRig.runId(rig.post("/bulk/dry-run", fields));
    }

    private static Element groupForm(Document groups, String errorType) {
        Element form = groups.selectFirst("form.bulk-group:has(input[name=groupErrorType][value=" + errorType + "])");
        assertThat(form).as("the bulk form of group " + errorType).isNotNull();
        return form;
    }

    private static int groupCount(Document groups, String errorType) {
        for (Element row : groups.select("#groups tbody tr")) {
            if (row.select("td").get(2).text().equals(errorType)) {
                return Integer.parseInt(row.selectFirst("a[data-count]").attr("data-count"));
            }
        }
        throw new AssertionError("no group " + errorType);
    }

    private static JsonNode awaitEnd(BulkRig rig, String run) {
        await().atMost(WAIT)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> !rig.progress(run).get("active").asBoolean());
        return rig.progress(run);
    }

    private static Map<String, Integer> tallies(JsonNode progress) {
        Map<String, Integer> t = new HashMap<>();
        progress.get("tallies")
                .forEach(n -> t.put(n.get("outcome").asText(), n.get("count").asInt()));
        return t;
    }

    private static Map<String, Integer> tallies(Document page, String table) {
        Map<String, Integer> t = new HashMap<>();
        page.select(table + " tbody tr")
                .forEach(tr -> t.put(
                        tr.attr("data-outcome"),
                        Integer.parseInt(tr.select("td").get(1).text())));
        return t;
    }

    private static void assertNoInlineScriptOrStyle(Document page) {
        assertThat(page.select("script:not([src])")).isEmpty();
        assertThat(page.select("style, [style]")).isEmpty();
        assertThat(page.select("script[src]"))
                .extracting(e -> e.attr("src"))
                .allSatisfy(src -> assertThat(src).startsWith("/"));
    }
}
