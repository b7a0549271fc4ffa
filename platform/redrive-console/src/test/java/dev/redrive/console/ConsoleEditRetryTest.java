package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayMarker;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Edit and retry over HTTP, on the fakes: the fixture's consumer ({@code scripted}) reads {@code key|rest}, and its
 * schema gate refuses a {@code v0:} payload with "v0 payload has no upcaster to v2". The dead letter came as {@code
 * p1|wrong}.
 */
class ConsoleEditRetryTest {

    static final String ID = "q-edit-1";

    ConsoleRig rig;
    String cookie;
    String csrf;
    QuarantineRecord dead;

    @BeforeEach
    void seed() {
        rig = new ConsoleRig();
        dead = deadLetter(rig);
        cookie = rig.openSession();
        csrf = rig.csrf(cookie);
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    @Test
    void theDeadLetterPageLinksToAnEditorThatOpensOnlyByAnExplicitReveal() {
        Document letter = rig.page("/dead-letters/" + ID, cookie);
        assertThat(letter.getElementById("edit-and-retry").attr("href")).isEqualTo("/dead-letters/" + ID + "/edit");

        Document page = rig.page("/dead-letters/" + ID + "/edit", cookie);
        assertThat(page.getElementById("reveal-notice").text())
                .contains("whole payload, sensitive fields included", "counts as revealing it");
        assertThat(page.getElementById("payload"))
                .as("not shown before the reveal")
                .isNull();
        assertThat(page.body().text()).doesNotContain("wrong");

        assertThat(audit()).noneMatch(e -> e.action() == AuditEntry.Action.PAYLOAD_REVEALED);
        Document opened = step(Map.of("step", "open"), 200);
        assertThat(opened.getElementById("revealed").text()).contains("revealed to you");
        assertThat(audit())
                .as("opening the editor is a reveal, recorded as the dead-letter page's reveal is")
                .filteredOn(e -> e.action() == AuditEntry.Action.PAYLOAD_REVEALED)
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.actor()).isEqualTo(ConsoleRig.OPERATOR);
                    assertThat(e.reason()).startsWith("revealed the whole payload");
                });
        assertThat(opened.getElementById("payload").text()).isEqualTo("p1|wrong");
        assertThat(opened.getElementById("send"))
                .as("no send before a passing check")
                .isNull();
    }

    @Test
    void anEditThatBreaksTheSchemaShowsTheValidatorsReasonAndSendsNothing() throws Exception {
        Document checked = step(Map.of("step", "check", "payload", "v0:p1|right"), 200);

        assertThat(checked.getElementById("schema").text()).isEqualTo("v0 payload has no upcaster to v2");
        assertThat(checked.getElementById("outcome").text())
                .contains("the edit would be refused", "fails the consumer's current schema");
        assertThat(checked.getElementById("send")).isNull();
        assertThat(checked.getElementById("payload").text())
                .as("the edit is kept on the page")
                .isEqualTo("v0:p1|right");

        // Even a hand-made send for that very text is refused by the port, with the reason.
        Document refused = step(
                Map.of("step", "send", "payload", "v0:p1|right", "reason", "fix", "checked", sha256("v0:p1|right")),
                422);
        assertThat(refused.getElementById("message").text())
                .contains("not sent", "fails the consumer's current schema: v0 payload has no upcaster to v2");
        assertNothingChanged();
    }

    @Test
    void theKeyCannotChange() throws Exception {
        Document checked = step(Map.of("step", "check", "payload", "p2|right"), 200);

        assertThat(checked.getElementById("key-check").text()).isEqualTo("changed from scripted#p1 to scripted#p2");
        assertThat(checked.getElementById("send")).isNull();
        Document refused = step(
                Map.of("step", "send", "payload", "p2|right", "reason", "fix", "checked", sha256("p2|right")), 422);
        assertThat(refused.getElementById("message").text())
                .contains("changes the idempotency key from scripted#p1 to scripted#p2");
        assertNothingChanged();
    }

    @Test
    void anAcceptedEditIsSentOnceAndTheTimelineShowsTheDiffTheReasonAndThePerson() {
        Document checked = step(Map.of("step", "check", "payload", "p1|right"), 200);
        assertThat(checked.getElementById("schema").text()).isEqualTo("current");
        assertThat(checked.getElementById("key-check").text()).isEqualTo("kept: scripted#p1");
        assertThat(checked.getElementById("outcome").text()).startsWith("would send to orders");
        assertThat(checked.getElementById("diff").text()).isEqualTo("text at character 3: \"wrong\" → \"right\"");
        assertThat(rig.fixture.sender.sent()).as("a check sends nothing").isEmpty();
        String digest = checked.selectFirst("input[name=checked]").val();

        HttpResponse<String> sent = post(Map.of(
                "step", "send", "payload", "p1|right", "reason", "the field was misspelt; T-7", "checked", digest));

        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(303);
        assertThat(sent.headers().firstValue("Location")).contains("/dead-letters/" + ID);
        assertThat(rig.fixture.sender.sent()).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo("p1|right");
            assertThat(m.queue()).isEqualTo("orders");
            assertThat(m.stringAttributes())
                    .containsEntry(ReplayMarker.ATTRIBUTE, ID + ":1")
                    .containsEntry("traceparent", "00-abc-def-01");
        });
        QuarantineRecord after = rig.operator.show(ID).orElseThrow();
        assertThat(after.state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(after.body()).as("the original is kept").isEqualTo("p1|wrong");

        Document letter = rig.page("/dead-letters/" + ID, cookie);
        List<String> last =
                letter.select("#timeline tbody tr").last().select("td").eachText();
        assertThat(last.get(2)).endsWith("REPLAYED");
        assertThat(last.get(3)).isEqualTo(ConsoleRig.OPERATOR.name());
        assertThat(last.get(4))
                .contains("reason: the field was misspelt; T-7")
                .contains("diff: text at character 3: \"wrong\" → \"right\"");
        assertThat(letter.getElementById("edit-and-retry"))
                .as("resolved: nothing to edit")
                .isNull();

        HttpResponse<String> again =
                post(Map.of("step", "send", "payload", "p1|right", "reason", "again", "checked", digest));
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(rig.fixture.sender.sent()).hasSize(1);
    }

    @Test
    void sendingNeedsAPassingCheckOfThatTextAndAReason() throws Exception {
        Document unchecked = step(Map.of("step", "send", "payload", "p1|right", "reason", "fix"), 409);
        assertThat(unchecked.getElementById("message").text()).contains("check the edit first");

        Document changed = step(
                Map.of("step", "send", "payload", "p1|right!", "reason", "fix", "checked", sha256("p1|right")), 409);
        assertThat(changed.getElementById("message").text()).contains("changed since its check");

        Document noReason =
                step(Map.of("step", "send", "payload", "p1|right", "reason", " ", "checked", sha256("p1|right")), 400);
        assertThat(noReason.getElementById("message").text()).contains("sending needs a reason");
        assertThat(noReason.getElementById("payload").text())
                .as("nothing is lost")
                .isEqualTo("p1|right");
        assertNothingChanged();
    }

    @Test
    void aWriteNeedsTheCsrfTokenAndTheConsolesOwnOrigin() throws Exception {
        String form =
                form(Map.of("step", "send", "payload", "p1|right", "reason", "fix", "checked", sha256("p1|right")));

        HttpResponse<String> noToken =
                rig.post("/dead-letters/" + ID + "/edit", form, "Cookie", cookie, "Origin", rig.origin());
        HttpResponse<String> crossOrigin = rig.post(
                "/dead-letters/" + ID + "/edit",
                form + "&_csrf=" + csrf,
                "Cookie",
                cookie,
                "Origin",
                "http://evil.example");
        HttpResponse<String> noSession =
                rig.post("/dead-letters/" + ID + "/edit", form + "&_csrf=" + csrf, "Origin", rig.origin());

        assertThat(noToken.statusCode()).isEqualTo(403);
        assertThat(crossOrigin.statusCode()).isEqualTo(403);
        assertThat(noSession.statusCode()).isEqualTo(401);
        assertNothingChanged();
    }

    @Test
    void aReadOnlyConsoleOffersNoEditAndRefusesOne() throws Exception {
        try (ConsoleRig readOnly = new ConsoleRig(new ConsoleOptions(ConsoleOptions.LOOPBACK, 0, true))) {
            deadLetter(readOnly);
            String session = readOnly.openSession();
            String token = readOnly.page("/", session)
                    .selectFirst("meta[name=csrf-token]")
                    .attr("content");

            assertThat(readOnly.page("/dead-letters/" + ID, session).getElementById("edit-and-retry"))
                    .isNull();
            Document page = readOnly.page("/dead-letters/" + ID + "/edit", session);
            assertThat(page.getElementById("not-editable").text()).contains("read-only");
            assertThat(page.select("form[action$=/edit]")).isEmpty();
            HttpResponse<String> refused = readOnly.post(
                    "/dead-letters/" + ID + "/edit",
                    form(Map.of("step", "open", "_csrf", token)),
                    "Cookie",
                    session,
                    "Origin",
                    readOnly.origin());
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).doesNotContain("wrong");
        }
    }

    private List<AuditEntry> audit() {
        return rig.fixture.ledger.find(ID).orElseThrow().audit();
    }

    private void assertNothingChanged() {
        assertThat(rig.fixture.sender.sent()).isEmpty();
        assertThat(rig.operator.show(ID).orElseThrow()).isEqualTo(dead);
    }

    private Document step(Map<String, String> fields, int status) {
        HttpResponse<String> r = post(fields);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        Document page = Jsoup.parse(r.body());
        assertThat(page.select("script:not([src]), style, [style]"))
                .as("no inline script or style")
                .isEmpty();
        assertThat(page.select("form[method=post]"))
                .allSatisfy(f -> assertThat(f.select("input[name=_csrf]").val()).isEqualTo(csrf));
        return page;
    }

    private HttpResponse<String> post(Map<String, String> fields) {
        Map<String, String> all = new LinkedHashMap<>(fields);
        all.put("_csrf", csrf);
        return rig.post("/dead-letters/" + ID + "/edit", form(all), "Cookie", cookie, "Origin", rig.origin());
    }

    private static String form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** A dead letter of the fixture's own consumer, whose key and schema the replay checks can read. */
    private static QuarantineRecord deadLetter(ConsoleRig rig) {
        Classification c = new Classification(FailureClass.PERMANENT, "BadField", "the field is misspelt", null);
        QuarantineRecord r = new QuarantineRecord(
                ID,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin("scripted", "orders", "orders-dlq", "m-1", "scripted#p1", ConsoleRig.NOW),
                new DeadLetterEvidence(c, ConsoleRig.NOW.minusSeconds(90), ConsoleRig.NOW.minusSeconds(30), 3),
                new PayloadLocation.Inline("p1|wrong"),
                Map.of("traceparent", MessageAttribute.ofString("00-abc-def-01")),
                0,
                "arrived",
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, ConsoleRig.NOW, Actor.AUTOMATION, "arrived")),
                0);
        assertThat(rig.fixture.ledger.insertIfAbsent(r, Optional.empty())).isTrue();
        return rig.operator.show(ID).orElseThrow();
    }
}
