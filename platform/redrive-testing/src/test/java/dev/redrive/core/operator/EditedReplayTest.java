package dev.redrive.core.operator;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.PayloadEdit;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.testing.replay.RecordingReplaySender;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Edit and retry over the fakes: the fixture's consumer reads {@code key|rest}, its schema gate refuses {@code v0:} and
 * upcasts {@code v1:}. Each dead letter here came as {@code p1|wrong}.
 */
class EditedReplayTest {

    final SweeperFixture f = new SweeperFixture();
    final OperatorPort operator = f.operator().build();
    final Actor ada = Actor.person("ada");
    QuarantineRecord dead;

    @BeforeEach
    void quarantine() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached("p1|wrong", FailureClass.PERMANENT, "BadField", null, T0));
        f.clock.advance(Duration.ofSeconds(2));
        f.sweep();
        dead = operator.list(QuarantineQuery.waiting(10)).get(0);
        assertThat(dead.body()).isEqualTo("p1|wrong");
    }

    @Test
    void anEditThatFailsTheCurrentSchemaIsRefusedWithTheValidatorsMessageAndChangesNothing() {
        EditedReplay r = operator.replayEdited(dead.id(), "v0:p1|right", ada, "fix the field", false);

        assertThat(r.outcome())
                .isInstanceOfSatisfying(
                        ReplayOutcome.Rejected.class,
                        x -> assertThat(x.reason())
                                .contains("fails the consumer's current schema: v0 payload has no upcaster to v2"));
        assertThat(r.checks().orElseThrow().schema()).isEqualTo("v0 payload has no upcaster to v2");
        assertThat(f.sender.sent()).isEmpty();
        assertThat(operator.show(dead.id()).orElseThrow()).isEqualTo(dead);
    }

    @Test
    void anEditInAnOlderSchemaVersionIsRefusedForItIsSentAsWritten() {
        EditedReplay r = operator.replayEdited(dead.id(), "v1:p1|right", ada, "fix", false);

        assertThat(r.outcome())
                .isInstanceOfSatisfying(
                        ReplayOutcome.Rejected.class,
                        x -> assertThat(x.reason())
                                .contains("schema version v1", "write it in the current version (v2)"));
        assertThat(f.sender.sent()).isEmpty();
        assertThat(operator.show(dead.id()).orElseThrow()).isEqualTo(dead);
    }

    @Test
    void anEditThatChangesTheKeyIsRefusedNamingTheOldAndNewKey() {
        EditedReplay r = operator.replayEdited(dead.id(), "p2|right", ada, "fix", false);

        assertThat(r.outcome())
                .isInstanceOfSatisfying(
                        ReplayOutcome.Rejected.class,
                        x -> assertThat(x.reason())
                                .contains("changes the idempotency key from scripted#p1 to scripted#p2"));
        assertThat(r.checks().orElseThrow().key()).isEqualTo("changed from scripted#p1 to scripted#p2");
        assertThat(f.sender.sent()).isEmpty();
        assertThat(operator.show(dead.id()).orElseThrow()).isEqualTo(dead);

        assertThat(operator.replayEdited(dead.id(), "|right", ada, "fix", false).outcome())
                .as("an edit from which no key can be read")
                .isInstanceOfSatisfying(
                        ReplayOutcome.Rejected.class,
                        x -> assertThat(x.reason())
                                .contains("reads no idempotency key from the edited payload", "scripted#p1"));
        assertThat(f.sender.sent()).isEmpty();
    }

    @Test
    void anAcceptedEditSendsExactlyTheEditedBodyOnceKeepsTheOriginalAndAuditsDiffReasonAndPerson() {
        EditedReplay r = operator.replayEdited(dead.id(), "p1|right", ada, "the field was misspelt; TICKET-7", false);

        assertThat(r.outcome()).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(r.checks().orElseThrow().schema()).isEqualTo("current");
        assertThat(r.checks().orElseThrow().key()).isEqualTo("kept: scripted#p1");
        List<RecordingReplaySender.Sent> sent = f.sender.sent();
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).body()).isEqualTo("p1|right");
        assertThat(sent.get(0).queue()).isEqualTo(dead.sourceQueue());
        assertThat(sent.get(0).stringAttributes())
                .as("the same marker as any replay")
                .containsEntry(ReplayMarker.ATTRIBUTE, new ReplayMarker(dead.id(), 1).encode());

        QuarantineRecord after = operator.show(dead.id()).orElseThrow();
        assertThat(after.state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(after.body()).as("the original is kept").isEqualTo("p1|wrong");
        AuditEntry replayed = after.audit().get(after.audit().size() - 1);
        assertThat(replayed.to()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(replayed.actor()).isEqualTo(ada);
        assertThat(replayed.reason())
                .contains("sent to " + dead.sourceQueue())
                .contains("reason: the field was misspelt; TICKET-7")
                .contains("diff: text at character 3: \"wrong\" → \"right\"");
        assertThat(f.stats.totals().get(FailureClass.PERMANENT).sent()).isEqualTo(1);

        assertThat(operator.replayEdited(dead.id(), "p1|right", ada, "again", false)
                        .outcome())
                .as("replayed already: not sent twice")
                .isInstanceOf(ReplayOutcome.NotReplayable.class);
        assertThat(f.sender.sent()).hasSize(1);
    }

    @Test
    void anEditAlreadyAppliedIsNotSentAndItsEntrySaysSo() {
        IdempotencyKey key = new IdempotencyKey("scripted", "p1");
        f.claims.claim(
                LeasePolicy.DEFAULT.request(
                        key, PayloadFingerprint.of("p1|right"), MessageOrigin.UNKNOWN, T0, Duration.ofSeconds(30)),
                T0);
        f.claims.complete(key, 1, "ok", T0);

        EditedReplay r = operator.replayEdited(dead.id(), "p1|right", ada, "fixed by hand meanwhile", false);

        assertThat(r.outcome()).isInstanceOf(ReplayOutcome.AlreadyApplied.class);
        assertThat(f.sender.sent()).isEmpty();
        QuarantineRecord after = operator.show(dead.id()).orElseThrow();
        assertThat(after.state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(after.body()).isEqualTo("p1|wrong");
        assertThat(after.audit().get(after.audit().size() - 1).reason())
                .contains("already applied under scripted#p1", "nothing sent", "reason: fixed by hand meanwhile");
    }

    @Test
    void aDryRunSaysWhatWouldHappenAndChangesNothing() {
        EditedReplay ok = operator.replayEdited(dead.id(), "p1|right", ada, "", true);
        EditedReplay refused = operator.replayEdited(dead.id(), "p2|right", null, null, true);

        assertThat(ok.outcome())
                .isInstanceOfSatisfying(
                        ReplayOutcome.Sent.class, s -> assertThat(s.dryRun()).isTrue());
        assertThat(ok.checks().orElseThrow().diff()).isEqualTo("text at character 3: \"wrong\" → \"right\"");
        assertThat(refused.outcome())
                .isInstanceOfSatisfying(
                        ReplayOutcome.Rejected.class,
                        x -> assertThat(x.dryRun()).isTrue());
        assertThat(f.sender.sent()).isEmpty();
        assertThat(operator.show(dead.id()).orElseThrow()).isEqualTo(dead);
    }

    @Test
    void aReasonAndAPersonAreRequired() {
        assertThatThrownBy(() -> operator.replayEdited(dead.id(), "p1|right", ada, " ", false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a reason");
        assertThatThrownBy(() -> operator.replayEdited(dead.id(), "p1|right", Actor.AUTOMATION, "fix", false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(operator.replayEdited("nope", "p1|right", ada, "fix", false).outcome())
                .isInstanceOf(ReplayOutcome.NotFound.class);
        assertThat(f.sender.sent()).isEmpty();
        assertThat(operator.show(dead.id()).orElseThrow()).isEqualTo(dead);
    }

    @Test
    void anEditWhoseSendIsNotAcceptedGoesBackToQuarantinedAndCanBeRetried() {
        List<String> tried = new ArrayList<>();
        ReplaySender refusing = new ReplaySender() {
            @Override
            public String send(String queue, String body, Map<String, MessageAttribute> attributes) {
                tried.add(body);
                return tried.size() == 1 ? null : f.sender.send(queue, body, attributes); // the first is not accepted
            }
        };
        OperatorPort op =
                f.operator().replays(f.replayService().sender(refusing).build()).build();

        EditedReplay r = op.replayEdited(dead.id(), "p1|right", ada, "fix", false);

        assertThat(r.outcome())
                .isInstanceOfSatisfying(
                        ReplayOutcome.Conflict.class,
                        c -> assertThat(c.reason()).contains("back in QUARANTINED"));
        QuarantineRecord back = op.show(dead.id()).orElseThrow();
        assertThat(back.state()).isEqualTo(QuarantineState.QUARANTINED);
        assertThat(back.body()).isEqualTo("p1|wrong");

        assertThat(op.replayEdited(dead.id(), "p1|right", ada, "fix, again", false)
                        .outcome())
                .isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(tried).containsExactly("p1|right", "p1|right");
        assertThat(f.sender.sent())
                .singleElement()
                .satisfies(s -> assertThat(s.body()).isEqualTo("p1|right"));
    }

    @Test
    void anEditWhoseSendThrowsIsRetriedWithTheEditAndNeverWithTheOriginal() {
        f.sender.failNextSends(1);

        assertThatThrownBy(() -> operator.replayEdited(dead.id(), "p1|right", ada, "fix", false))
                .hasMessageContaining("failed (simulated)");
        assertThat(f.sender.sent()).isEmpty();
        assertThat(operator.show(dead.id()).orElseThrow().state()).isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);

        assertThat(operator.replayEdited(dead.id(), "p1|right", ada, "fix, again", false)
                        .outcome())
                .isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(f.sender.sent())
                .singleElement()
                .satisfies(s -> assertThat(s.body()).isEqualTo("p1|right"));
    }

    @Test
    void aReplayThatFindsAnEditReadiedButNotSentMovesItBackRatherThanSendTheOriginal() {
        // An edit saved in IDEMPOTENCY_CHECK whose sender stopped before its send: its body is not kept.
        QuarantineRecord readied = dead.moveTo(QuarantineState.UNDER_REVIEW, ada, "fix", T0)
                .moveTo(QuarantineState.SCHEMA_CHECK, ada, "checking the edited payload", T0)
                .moveTo(QuarantineState.IDEMPOTENCY_CHECK, ada, PayloadEdit.AUDIT_MARK + ": ready", T0);
        f.ledger.save(readied, Optional.empty()).orElseThrow();
        f.clock.advance(Duration.ofMinutes(3)); // past the send in flight

        ReplayOutcome plain =
                operator.approveReplay(List.of(dead.id()), ada, "retry", false).get(dead.id());

        assertThat(plain)
                .isInstanceOfSatisfying(
                        ReplayOutcome.NotReplayable.class,
                        n -> assertThat(n.reason()).contains("was not sent", "back in QUARANTINED"));
        assertThat(f.sender.sent())
                .as("the original is never sent in the edit's place")
                .isEmpty();
        assertThat(operator.show(dead.id()).orElseThrow().state()).isEqualTo(QuarantineState.QUARANTINED);
        assertThat(operator.list(new QuarantineQuery(
                        Optional.empty(), Set.of(), Set.of(), Optional.empty(), Optional.empty(), 10)))
                .hasSize(1);
    }
}
