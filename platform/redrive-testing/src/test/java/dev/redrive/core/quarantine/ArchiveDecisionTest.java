package dev.redrive.core.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.testing.ManualClock;
import dev.redrive.testing.lease.InMemoryLeaseStore;
import dev.redrive.testing.quarantine.InMemoryQuarantineLedger;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ArchiveDecisionTest {

    final ManualClock clock = new ManualClock(QuarantineStateMachineTest.T0.plusSeconds(60));
    final InMemoryQuarantineLedger ledger = new InMemoryQuarantineLedger(new InMemoryLeaseStore(), clock);
    final ArchiveDecision decision = new ArchiveDecision(ledger, clock);
    final Actor ada = Actor.person("ada");

    @Test
    void aPersonArchivesAQuarantinedDeadLetterWithTheNoteInTheAuditTrail() {
        ledger.insertIfAbsent(QuarantineStateMachineTest.record(), Optional.empty());

        ArchiveDecision.Outcome outcome = decision.archive("q-1", ada, "duplicate of order o-1, refunded", false);

        assertThat(outcome).isInstanceOf(ArchiveDecision.Archived.class);
        QuarantineRecord r = ledger.find("q-1").orElseThrow();
        assertThat(r.state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(r.audit())
                .last()
                .isEqualTo(new AuditEntry(
                        QuarantineState.QUARANTINED,
                        QuarantineState.ARCHIVED,
                        clock.instant(),
                        ada,
                        "archived by decision: duplicate of order o-1, refunded"));
    }

    @Test
    void aDryRunWritesNothing() {
        ledger.insertIfAbsent(QuarantineStateMachineTest.record(), Optional.empty());

        assertThat(decision.archive("q-1", ada, "junk", true))
                .isInstanceOfSatisfying(
                        ArchiveDecision.Archived.class,
                        a -> assertThat(a.dryRun()).isTrue());
        assertThat(ledger.find("q-1").orElseThrow().state()).isEqualTo(QuarantineState.QUARANTINED);
    }

    @Test
    void otherStatesAreRefusedWithTheReasonAndNothingIsWritten() {
        QuarantineRecord checking = QuarantineStateMachineTest.record()
                .moveTo(QuarantineState.UNDER_REVIEW, ada, "", clock.instant())
                .moveTo(QuarantineState.SCHEMA_CHECK, ada, "", clock.instant());
        ledger.insertIfAbsent(checking, Optional.empty());

        ArchiveDecision.Outcome outcome = decision.archive("q-1", ada, "junk", false);

        assertThat(outcome).isInstanceOfSatisfying(ArchiveDecision.Refused.class, r -> {
            assertThat(r.state()).isEqualTo(QuarantineState.SCHEMA_CHECK);
            assertThat(r.describe()).contains("it is SCHEMA_CHECK").contains("QUARANTINED, UNDER_REVIEW");
        });
        assertThat(ledger.find("q-1").orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void unknownIdsAreNotFoundAndTheAutomationOrABlankNoteCannotDecide() {
        assertThat(decision.archive("q-none", ada, "junk", false)).isInstanceOf(ArchiveDecision.NotFound.class);
        assertThatThrownBy(() -> decision.archive("q-1", Actor.AUTOMATION, "junk", false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a person's call");
        assertThatThrownBy(() -> decision.archive("q-1", ada, " ", false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a note");
    }
}
