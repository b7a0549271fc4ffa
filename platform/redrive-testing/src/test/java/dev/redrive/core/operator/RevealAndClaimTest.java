package dev.redrive.core.operator;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The operator port's record of a payload revealed to a person (an audit entry that changes no state), and its reading
 * of a dead letter's claim.
 */
class RevealAndClaimTest {

    final SweeperFixture f = new SweeperFixture();
    final OperatorPort operator = f.operator().build();
    final Actor ada = Actor.person("ada");
    final Actor bob = Actor.person("bob");

    String quarantined(String body) {
        f.dlq.add(ROUTE.deadLetterQueue(), attached(body, FailureClass.TRANSIENT, "Timeout", null, T0));
        f.sweep();
        return f.ledger.all().stream()
                .filter(r -> r.body().equals(body))
                .findFirst()
                .orElseThrow()
                .id();
    }

    @Test
    void aRevealIsAnAuditEntryNamingThePersonAndTheFieldsAndChangesNothingElse() {
        String id = quarantined("order-1|x");
        QuarantineRecord before = f.ledger.find(id).orElseThrow();
        f.clock.advance(Duration.ofMinutes(5));

        QuarantineRecord after = operator.recordReveal(id, ada, List.of("$.customer.email", "$.customer.name"));

        assertThat(after).isEqualTo(f.ledger.find(id).orElseThrow());
        assertThat(after.audit()).hasSize(before.audit().size() + 1);
        assertThat(after.audit().subList(0, before.audit().size())).isEqualTo(before.audit());
        assertThat(after.audit().get(after.audit().size() - 1))
                .isEqualTo(new AuditEntry(
                        QuarantineState.QUARANTINED,
                        QuarantineState.QUARANTINED,
                        T0.plus(Duration.ofMinutes(5)),
                        ada,
                        "revealed the payload's sensitive fields: $.customer.email, $.customer.name",
                        AuditEntry.Action.PAYLOAD_REVEALED));
        assertThat(after.state()).isEqualTo(before.state());
        assertThat(after.note()).isEqualTo(before.note());
        assertThat(after.version()).isEqualTo(before.version() + 1);
        assertThat(after.lastChangedAt()).as("a reveal is no state change").isEqualTo(before.lastChangedAt());
        assertThat(after.audit().get(0).transition()).isTrue();
        assertThat(after.audit().get(after.audit().size() - 1).transition()).isFalse();
    }

    @Test
    void aWithheldPayloadRevealedWholeAndOneWithNothingSensitiveAreSaidSo() {
        String id = quarantined("order-2|x");

        operator.recordReveal(id, ada, List.of("$"));
        QuarantineRecord r = operator.recordReveal(id, bob, List.of());

        assertThat(r.audit().subList(r.audit().size() - 2, r.audit().size()))
                .extracting(AuditEntry::actor, AuditEntry::reason, AuditEntry::action)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                ada,
                                "revealed the whole payload (withheld, since its sensitive fields cannot be told apart)",
                                AuditEntry.Action.PAYLOAD_REVEALED),
                        org.assertj.core.groups.Tuple.tuple(
                                bob,
                                "revealed the payload (no field in it is marked sensitive)",
                                AuditEntry.Action.PAYLOAD_REVEALED));
    }

    @Test
    void theAutomationRevealsNothingAndAnUnknownIdIsNamed() {
        String id = quarantined("order-3|x");
        long version = f.ledger.find(id).orElseThrow().version();

        assertThatThrownBy(() -> operator.recordReveal(id, Actor.AUTOMATION, List.of("$.a")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> operator.recordReveal("q-nope", ada, List.of("$.a")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no dead letter 'q-nope'");
        assertThat(f.ledger.find(id).orElseThrow().version())
                .as("nothing written")
                .isEqualTo(version);
    }

    @Test
    void aRevealWrittenWhileTheRecordChangesIsWrittenAgainOnTheNewRecordAndKeepsTheChange() {
        String id = quarantined("order-4|x");
        OperatorPort interleaved = f.operator().ledger(f.interleaved).build();
        // Bob archives it between Ada's read and her write: her first write is refused, the second lands on his.
        f.interleaved.beforeSaves(id, 1, r -> operator.archive(List.of(id), bob, "duplicate of order-3", false));

        QuarantineRecord r = interleaved.recordReveal(id, ada, List.of("$.card"));

        assertThat(r.state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(r.audit().subList(r.audit().size() - 2, r.audit().size()))
                .extracting(AuditEntry::actor, AuditEntry::action)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(bob, AuditEntry.Action.TRANSITION),
                        org.assertj.core.groups.Tuple.tuple(ada, AuditEntry.Action.PAYLOAD_REVEALED));
    }

    @Test
    void aRevealDoesNotRestartRetention() {
        String id = quarantined("order-5|x");
        f.clock.advance(f.settings.retention().minusMinutes(1));
        operator.recordReveal(id, ada, List.of("$.card"));
        f.clock.advance(Duration.ofMinutes(2));

        f.sweep();

        assertThat(f.ledger.find(id).orElseThrow().archivedToStore())
                .as("archived at the end of its retention, counted from its last state change")
                .isTrue();
    }

    @Test
    void aRevealByAnotherAfterAReplayWasReadiedIsNotTakenForTheirSend() {
        String id = quarantined("order-6|x");
        f.sender.failNextSends(1);
        assertThatThrownBy(() -> f.replays.replay(id, ada, "provider back", Optional.empty(), false))
                .hasMessageContaining("failed (simulated)");
        assertThat(f.ledger.find(id).orElseThrow().state()).isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);
        operator.recordReveal(id, bob, List.of("$.card"));

        ReplayOutcome adas = f.replays.replay(id, ada, "provider back", Optional.empty(), false);

        assertThat(adas).as("Ada resumes her own replay: Bob only looked").isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(f.sender.sent()).hasSize(1);
    }

    @Test
    void theClaimOfADeadLetterIsReadAsItsConsumerWouldSeeIt() {
        IdempotencyKey key = new IdempotencyKey("scripted", "order-7");
        f.claims.claim(LeasePolicy.DEFAULT.request(key, "h", MessageOrigin.UNKNOWN, T0, Duration.ofSeconds(30)), T0);
        f.claims.release(
                key,
                1,
                new FailureRecord(
                        new Classification(FailureClass.TRANSIENT, "Timeout", "slow", "payments"), 1, T0, T0, "orders"),
                T0.plusSeconds(1));
        String id = quarantined("order-7|x");
        String unclaimed = quarantined("order-8|x");

        Optional<ClaimRecord> claim = operator.claim(f.ledger.find(id).orElseThrow());

        assertThat(claim).hasValueSatisfying(c -> {
            assertThat(c.key()).isEqualTo(key);
            assertThat(c.status()).isEqualTo(ClaimStatus.FAILED);
            assertThat(c.fencingToken()).isEqualTo(1);
            assertThat(c.failureCount()).isEqualTo(1);
            assertThat(c.lastFailure().classification().errorType()).isEqualTo("Timeout");
        });
        assertThat(operator.claim(f.ledger.find(unclaimed).orElseThrow())).isEmpty();
        assertThatThrownBy(() -> LedgerOperator.builder()
                        .ledger(f.ledger)
                        .replays(f.replays)
                        .windows(f.windows)
                        .stats(f.stats)
                        .queues(f.dlq)
                        .payloads(f.payloads)
                        .build()
                        .claim(f.ledger.find(id).orElseThrow()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("without the claim store");
    }
}
