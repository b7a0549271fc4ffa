package dev.redrive.core.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How the sweeper classifies a dead letter from its claim: attempts that vanished mid-flight (the sandbox crashed or
 * timed out) make it POISON only when they outnumber the attempts that recorded a failure. One cold start that timed
 * out during an outage does not turn the outage's TRANSIENT dead letter into POISON; a message that kills most of its
 * deliveries is POISON even if one of them failed first.
 */
class DeadLetterEvidenceTest {

    static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");
    static final Classification SLOW_DOWN =
            new Classification(FailureClass.TRANSIENT, "SlowDown", "SlowDown (HTTP 503) from email-provider", "email");

    static ClaimRecord claim(ClaimStatus status, long attempts, int failuresRecorded, Instant leaseExpiresAt) {
        return claim(status, attempts, failuresRecorded, leaseExpiresAt, SLOW_DOWN);
    }

    static ClaimRecord claim(
            ClaimStatus status, long attempts, int failuresRecorded, Instant leaseExpiresAt, Classification failure) {
        FailureRecord last = failuresRecorded == 0
                ? null
                : new FailureRecord(failure, failuresRecorded, NOW.minusSeconds(60), NOW.minusSeconds(5), "q", "1.0");
        return new ClaimRecord(
                new IdempotencyKey("email", "o-1"),
                status,
                attempts,
                leaseExpiresAt,
                NOW.plus(Duration.ofDays(1)),
                "h",
                null,
                last,
                failuresRecorded,
                MessageOrigin.UNKNOWN,
                attempts + failuresRecorded);
    }

    static DeadLetterEvidence classify(ClaimRecord claim) {
        return DeadLetterEvidence.classify(Optional.empty(), Optional.of(claim), 5, NOW);
    }

    @Test
    void oneVanishedAttemptAmongRecordedTransientFailuresKeepsTheRecordedClassAndSaysSo() {
        DeadLetterEvidence e = classify(claim(ClaimStatus.FAILED, 4, 3, NOW.minusSeconds(5), SLOW_DOWN));

        assertThat(e.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(e.classification().errorType()).isEqualTo("SlowDown");
        assertThat(e.classification().dependency()).isEqualTo("email");
        assertThat(e.classification().reason())
                .isEqualTo("failed 3 time(s) with SlowDown, and 1 of 4 attempts neither completed nor recorded a "
                        + "failure (crashed or timed out mid-flight): SlowDown (HTTP 503) from email-provider");
        assertThat(e.lastFailedAt()).isEqualTo(NOW.minusSeconds(5));
        assertThat(e.buildVersion()).isEqualTo("1.0");
    }

    @Test
    void asManyVanishedAttemptsAsRecordedFailuresStillKeepTheRecordedClass() {
        DeadLetterEvidence e = classify(claim(ClaimStatus.FAILED, 4, 2, NOW.minusSeconds(5), SLOW_DOWN));

        assertThat(e.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(e.classification().reason()).startsWith("failed 2 time(s) with SlowDown, and 2 of 4 attempts");
    }

    @Test
    void theVanishedAttemptsStayInTheReasonWhenTheRecordedReasonFillsItsLength() {
        Classification wordy = new Classification(
                FailureClass.TRANSIENT, "SlowDown", "x".repeat(Classification.MAX_REASON_LENGTH), "email");

        DeadLetterEvidence e = classify(claim(ClaimStatus.FAILED, 4, 3, NOW.minusSeconds(5), wordy));

        assertThat(e.classification().reason())
                .hasSize(Classification.MAX_REASON_LENGTH)
                .contains("1 of 4 attempts neither completed nor recorded a failure");
    }

    @Test
    void vanishedAttemptsOutnumberingTheRecordedFailuresArePoisonNamingTheLastFailure() {
        DeadLetterEvidence e = classify(claim(ClaimStatus.IN_PROGRESS, 4, 1, NOW.minusSeconds(5)));

        assertThat(e.classification().failureClass()).isEqualTo(FailureClass.POISON);
        assertThat(e.classification().errorType()).isEqualTo("VanishedMidFlight");
        assertThat(e.classification().reason())
                .isEqualTo(
                        "3 of 4 attempts neither completed nor recorded a failure: the consumer crashed or timed out "
                                + "mid-flight; the last recorded failure was TRANSIENT SlowDown");
        assertThat(e.lastFailedAt()).isEqualTo(NOW.minusSeconds(5));
    }

    @Test
    void everyAttemptVanishedIsPoison() {
        DeadLetterEvidence e = classify(claim(ClaimStatus.IN_PROGRESS, 3, 0, NOW.minusSeconds(5)));

        assertThat(e.classification().failureClass()).isEqualTo(FailureClass.POISON);
        assertThat(e.classification().errorType()).isEqualTo("VanishedMidFlight");
        assertThat(e.classification().reason())
                .isEqualTo(
                        "3 of 3 attempts neither completed nor recorded a failure: the consumer crashed or timed out "
                                + "mid-flight");
        assertThat(e.lastFailedAt()).isNull();
    }

    @Test
    void theAttemptStillHoldingItsLeaseHasNotVanished() {
        DeadLetterEvidence e = classify(claim(ClaimStatus.IN_PROGRESS, 2, 1, NOW.plusSeconds(20)));

        assertThat(e.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(e.classification().reason())
                .isEqualTo("failed 1 time(s) with SlowDown: " + "SlowDown (HTTP 503) from email-provider");
    }

    @Test
    void aCompletedClaimCountsItsCompletionAsAnAttemptThatEnded() {
        DeadLetterEvidence e = classify(claim(ClaimStatus.COMPLETED, 1, 0, NOW.minusSeconds(5)));

        assertThat(e.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(e.classification().errorType()).isEqualTo("AppliedBeforeDeadLetter");
    }
}
