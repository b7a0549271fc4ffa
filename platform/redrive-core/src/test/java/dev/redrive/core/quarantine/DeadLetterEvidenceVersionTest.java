package dev.redrive.core.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The consumer's build version travels from its failure record into the dead letter's evidence; old records read. */
class DeadLetterEvidenceVersionTest {

    static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    static final Classification TIMEOUT = new Classification(FailureClass.TRANSIENT, "Timeout", "slow", "provider");

    @Test
    void anAttachedFailureGivesItsVersionAndTheNextFailureKeepsTheFirstTime() {
        FailureRecord first = FailureRecord.next(null, TIMEOUT, 1, T0, "orders", "1.5.0");
        FailureRecord second = FailureRecord.next(first, TIMEOUT, 2, T0.plusSeconds(60), "orders", "1.5.1");

        DeadLetterEvidence e = DeadLetterEvidence.classify(Optional.of(second), Optional.empty(), 2, T0);

        assertThat(e.buildVersion()).isEqualTo("1.5.1");
        assertThat(e.firstFailedAt()).isEqualTo(T0);
        assertThat(second.keepingFirstOf(first).buildVersion()).isEqualTo("1.5.1");
    }

    @Test
    void aRecordWithoutAVersionReadsAsNoneRecorded() {
        FailureRecord old = new FailureRecord(TIMEOUT, 1, T0, T0, "orders");
        DeadLetterEvidence e = DeadLetterEvidence.classify(Optional.of(old), Optional.empty(), 1, T0);
        DeadLetterEvidence poison = DeadLetterEvidence.classify(Optional.empty(), Optional.empty(), 5, T0);

        assertThat(old.buildVersion()).isEmpty();
        assertThat(e.buildVersion()).isEmpty();
        assertThat(poison.buildVersion()).isEmpty();
        assertThat(new FailureRecord(TIMEOUT, 1, T0, T0, "orders", null).buildVersion())
                .isEmpty();
    }
}
