package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The page of one dead letter over HTTP, on the fakes: the payload redacted by its schema (asserted on the HTML), an
 * audited reveal, the attributes, the claim, what the checks would answer now, and a complete timeline in order.
 */
class DeadLetterPageTest {

    static final Instant NOW = ConsoleRig.NOW;
    static final String SIGNUP = "{\"eventType\":\"Signup\",\"version\":1,"
            + "\"person\":{\"email\":\"ada@example.com\",\"plan\":\"pro\"},\"card\":\"4111111111111111\"}";

    private ConsoleRig rig = new ConsoleRig();

    @AfterEach
    void stop() {
        rig.close();
    }

    static QuarantineRecord record(String id, String consumer, String body, Map<String, MessageAttribute> attributes) {
        Instant arrived = NOW.minus(Duration.ofMinutes(50));
        return new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin(
                        consumer,
                        "orders",
                        "orders-dlq",
                        "m-" + id,
                        consumer + "#" + (body.contains("|") ? body.split("\\|")[0] : "k-" + id),
                        arrived),
                new DeadLetterEvidence(
                        new Classification(FailureClass.TRANSIENT, "Timeout", "the provider timed out", "provider"),
                        NOW.minus(Duration.ofHours(2)),
                        NOW.minus(Duration.ofHours(1)),
                        3),
                new PayloadLocation.Inline(body),
                attributes,
                0,
                "arrived",
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, arrived, Actor.AUTOMATION, "arrived")),
                0);
    }

    String signup(ConsoleRig on) {
        QuarantineRecord r = record(
                "q-signup",
                "email",
                SIGNUP,
                Map.of(
                        "traceparent", MessageAttribute.ofString("00-abc-def-01"),
                        "x-api-key", MessageAttribute.ofString("k-123-secret"),
                        "retries", new MessageAttribute("Number", "3", null)));
        assertThat(on.fixture.ledger.insertIfAbsent(r, Optional.empty())).isTrue();
        return r.id();
    }

    HttpResponse<String> reveal(String id, String cookie, String csrf) {
        return rig.post("/dead-letters/" + id + "/reveal", "_csrf=" + csrf, "Cookie", cookie, "Origin", rig.origin());
    }

    @Test
    void theSensitiveFieldsAreRedactedInThePageAndMarked() {
        String id = signup(rig);
        String cookie = rig.openSession();

        String html = rig.get("/dead-letters/" + id, cookie).body();
        Document page = Jsoup.parse(html);

        assertThat(html).doesNotContain("ada@example.com", "4111111111111111", "k-123-secret");
        assertThat(page.getElementById("payload").text())
                .contains("\"plan\" : \"pro\"", "\"eventType\" : \"Signup\"", "\"email\" : \"[redacted]\"");
        assertThat(page.select("#payload span.redacted").eachText())
                .containsExactly("\"email\" : \"[redacted]\",", "\"card\" : \"[redacted]\"");
        assertThat(page.select("#sensitive-paths li").eachText())
                .containsExactly("$.person.email", "$.card", "attribute:x-api-key");
        assertThat(page.getElementById("payload-where").text()).contains("schema Signup v1");
        assertThat(page.select("#attributes tbody tr").stream()
                        .map(tr -> String.join(" | ", tr.select("td").eachText()))
                        .toList())
                .containsExactly(
                        "retries | Number | 3",
                        "traceparent | String | 00-abc-def-01",
                        "x-api-key | String | [redacted]");
        assertThat(page.select("form#reveal[method=post] input[name=_csrf]").attr("value"))
                .isEqualTo(rig.csrf(cookie));
        assertThat(rig.operator.show(id).orElseThrow().audit())
                .as("looking records nothing")
                .hasSize(1);
    }

    @Test
    void aRevealShowsEverythingOnceAndIsRecordedWithThePersonAndTheFields() {
        String id = signup(rig);
        String cookie = rig.openSession();
        String csrf = rig.csrf(cookie);

        HttpResponse<String> revealed = reveal(id, cookie, csrf);

        assertThat(revealed.statusCode()).isEqualTo(200);
        assertThat(revealed.body()).contains("ada@example.com", "4111111111111111", "k-123-secret");
        Document page = Jsoup.parse(revealed.body());
        assertThat(page.getElementById("payload-revealed").text()).contains(ConsoleRig.OPERATOR.name());
        assertThat(page.getElementById("reveal")).as("no second reveal form").isNull();
        List<AuditEntry> audit = rig.operator.show(id).orElseThrow().audit();
        assertThat(audit).hasSize(2);
        assertThat(audit.get(1))
                .isEqualTo(new AuditEntry(
                        QuarantineState.QUARANTINED,
                        QuarantineState.QUARANTINED,
                        NOW,
                        ConsoleRig.OPERATOR,
                        "revealed the payload's sensitive fields: $.person.email, $.card, attribute:x-api-key",
                        AuditEntry.Action.PAYLOAD_REVEALED));
        assertThat(page.select("#timeline tr[data-kind=payload revealed] td").eachText())
                .contains(ConsoleRig.OPERATOR.name());

        String again = rig.get("/dead-letters/" + id, cookie).body();
        assertThat(again).as("redacted again").doesNotContain("ada@example.com", "4111111111111111", "k-123-secret");
    }

    @Test
    void aRevealWithoutTheCsrfTokenOrInAReadOnlyConsoleIsRefusedAndRecordsNothing() {
        String id = signup(rig);
        String cookie = rig.openSession();

        HttpResponse<String> noToken = reveal(id, cookie, "wrong");

        assertThat(noToken.statusCode()).isEqualTo(403);
        assertThat(noToken.body()).doesNotContain("ada@example.com");
        assertThat(rig.operator.show(id).orElseThrow().audit()).hasSize(1);

        rig.close();
        rig = new ConsoleRig(new ConsoleOptions(ConsoleOptions.LOOPBACK, 0, true));
        String readOnlyId = signup(rig);
        String readOnlyCookie = rig.openSession();
        Document page = rig.page("/dead-letters/" + readOnlyId, readOnlyCookie);
        assertThat(page.getElementById("reveal")).isNull();
        assertThat(page.select("#sensitive-paths li")).hasSize(3);
        HttpResponse<String> refused = reveal(readOnlyId, readOnlyCookie, rig.csrf(readOnlyCookie));
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).doesNotContain("ada@example.com");
        assertThat(rig.operator.show(readOnlyId).orElseThrow().audit()).hasSize(1);
    }

    @Test
    void theTimelineHoldsEveryFailureTheArrivalEachStateChangeTheReplayTheRevealAndTheArchiveInOrder() {
        IdempotencyKey key = new IdempotencyKey("scripted", "order-9");
        Instant claimed = NOW.minus(Duration.ofHours(3));
        rig.fixture.claims.claim(
                LeasePolicy.DEFAULT.request(key, "h", MessageOrigin.UNKNOWN, claimed, Duration.ofSeconds(30)), claimed);
        rig.fixture.claims.release(
                key,
                1,
                new FailureRecord(
                        new Classification(FailureClass.TRANSIENT, "Timeout", "slow", "provider"),
                        1,
                        claimed.plusSeconds(10),
                        claimed.plusSeconds(10),
                        "orders"),
                claimed.plusSeconds(10));
        QuarantineRecord r = record("q-order-9", "scripted", "order-9|x", Map.of());
        rig.fixture.ledger.insertIfAbsent(r, Optional.empty());
        String cookie = rig.openSession();
        String csrf = rig.csrf(cookie);

        Document before = rig.page("/dead-letters/" + r.id(), cookie);
        assertThat(before.getElementById("checks-verdict").text())
                .isEqualTo("a replay would be sent: the schema check passes and the idempotency check finds it not "
                        + "applied");
        assertThat(before.getElementById("checks-describe").text()).isEqualTo("would send to orders");
        assertThat(before.getElementById("claim-applied").text()).isEqualTo("not applied: its claim is FAILED");
        assertThat(before.getElementById("claim-status").text()).isEqualTo("FAILED");
        assertThat(before.getElementById("claim-token").text()).isEqualTo("1");
        assertThat(before.getElementById("claim-failures").text()).isEqualTo("1");
        assertThat(rig.fixture.sender.sent()).as("the checks send nothing").isEmpty();

        Actor ada = Actor.person("ada");
        rig.fixture.clock.advance(Duration.ofMinutes(1));
        assertThat(rig.operator
                        .approveReplay(List.of(r.id()), ada, "provider back", false)
                        .get(r.id()))
                .isInstanceOf(ReplayOutcome.Sent.class);
        rig.fixture.clock.advance(Duration.ofMinutes(1));
        QuarantineRecord replayed = rig.fixture.ledger.find(r.id()).orElseThrow();
        rig.fixture.ledger.save(
                replayed.moveTo(
                        QuarantineState.QUARANTINED,
                        Actor.AUTOMATION,
                        "the replay dead-lettered again",
                        rig.fixture.clock.instant()),
                Optional.empty());
        rig.fixture.clock.advance(Duration.ofMinutes(1));
        assertThat(reveal(r.id(), cookie, csrf).statusCode()).isEqualTo(200);
        rig.fixture.clock.advance(Duration.ofMinutes(1));
        assertThat(rig.post(
                                "/dead-letters/" + r.id() + "/archive",
                                "reason=duplicate+of+order-8&_csrf=" + csrf,
                                "Cookie",
                                cookie,
                                "Origin",
                                rig.origin())
                        .statusCode())
                .isEqualTo(303);

        Document page = rig.page("/dead-letters/" + r.id(), cookie);
        List<String> kinds = page.select("#timeline tbody tr").eachAttr("data-kind");
        List<String> ats = page.select("#timeline tbody tr td:eq(0)").eachText();
        List<AuditEntry> audit = rig.operator.show(r.id()).orElseThrow().audit();

        assertThat(kinds)
                .containsExactly(
                        "failure", // the claim's recorded failure, 3 h ago
                        "failure", // first failure of the evidence
                        "failure", // last failure of the evidence
                        "arrival",
                        "state change",
                        "state change",
                        "state change",
                        "replay",
                        "returned",
                        "payload revealed",
                        "archived");
        assertThat(kinds).hasSize(3 + audit.size());
        assertThat(ats).isSortedAccordingTo(String::compareTo);
        assertThat(page.select("#timeline tr[data-kind=replay] td").eachText())
                .contains("replayed: IDEMPOTENCY_CHECK → REPLAYED", "ada");
        assertThat(page.select("#timeline tr[data-kind=state change] td").eachText())
                .contains("QUARANTINED → UNDER_REVIEW", "ada", "provider back");
        assertThat(page.select("#timeline tr[data-kind=archived] td").eachText())
                .contains(ConsoleRig.OPERATOR.name(), "archived by decision: duplicate of order-8");
        assertThat(page.select("#timeline tr[data-kind=payload revealed] td").eachText())
                .contains(
                        ConsoleRig.OPERATOR.name(),
                        "revealed the whole payload (withheld, since its sensitive fields cannot be told apart)");
        assertThat(page.select("#timeline tr[data-kind=failure] td").eachText())
                .contains("last failure its claim recorded (1 of 1 attempt(s) failed): TRANSIENT Timeout");
        assertThat(page.getElementById("checks-verdict").text()).isEqualTo("not replayable from its state");
        assertThat(page.getElementById("state").text()).isEqualTo("ARCHIVED");
    }

    @Test
    void aDeadLetterWhoseClaimCompletedIsAlreadyAppliedAndOneWithoutAClaimIsSaidSo() {
        IdempotencyKey key = new IdempotencyKey("scripted", "order-10");
        rig.fixture.claims.claim(
                LeasePolicy.DEFAULT.request(
                        key, PayloadFingerprint.of("order-10|x"), MessageOrigin.UNKNOWN, NOW, Duration.ofSeconds(30)),
                NOW);
        rig.fixture.claims.complete(key, 1, "done", NOW);
        rig.fixture.ledger.insertIfAbsent(record("q-applied", "scripted", "order-10|x", Map.of()), Optional.empty());
        rig.fixture.ledger.insertIfAbsent(record("q-unclaimed", "scripted", "order-11|x", Map.of()), Optional.empty());
        String cookie = rig.openSession();

        Document applied = rig.page("/dead-letters/q-applied", cookie);
        Document unclaimed = rig.page("/dead-letters/q-unclaimed", cookie);

        assertThat(applied.getElementById("claim-applied").text())
                .isEqualTo("applied: its claim completed under token 1");
        assertThat(applied.getElementById("checks-verdict").text())
                .isEqualTo("already applied: the idempotency check finds its claim completed, nothing would be sent");
        assertThat(unclaimed.getElementById("claim-applied").text())
                .isEqualTo("not applied: no claim of its key counts (none was written, or it expired)");
        assertThat(unclaimed.getElementById("claim-status").text()).isEqualTo("none");
        assertThat(new ArrayList<>(rig.fixture.sender.sent())).isEmpty();
    }
}
