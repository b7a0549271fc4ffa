package dev.redrive.core.claim;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a message can come back after its effect was applied, which a claim's TTL must cover: its time in the
 * source queue, then in the dead-letter queue, then in quarantine until its last possible replay, plus a margin. The
 * IaC derives the TTL from the same settings; the functions check it again at start.
 *
 * @param sourceRetention     the longest source-queue retention
 * @param deadLetterRetention the longest dead-letter-queue retention
 * @param quarantineRetention how long the sweeper keeps a dead letter replayable
 */
public record ClaimRetention(Duration sourceRetention, Duration deadLetterRetention, Duration quarantineRetention) {

    /** Added to the sum: clock skew, the replay's own trip through the source queue, the time a sweep takes. */
    public static final Duration MARGIN = Duration.ofDays(1);

    public ClaimRetention {
        Objects.requireNonNull(sourceRetention, "sourceRetention");
        Objects.requireNonNull(deadLetterRetention, "deadLetterRetention");
        Objects.requireNonNull(quarantineRetention, "quarantineRetention");
    }

    /** The shortest safe claim TTL. */
    public Duration requiredTtl() {
        return sourceRetention
                .plus(deadLetterRetention)
                .plus(quarantineRetention)
                .plus(MARGIN);
    }

    /** Whether claims that count for {@code recordTtl} outlive every way a message can come back. */
    public boolean covers(Duration recordTtl) {
        return recordTtl.compareTo(requiredTtl()) >= 0;
    }

    /**
     * For how long after a dead letter arrived its claim, if one was ever written, still counts under {@code
     * recordTtl}: the claim was last written no earlier than the message was first sent, which is at most source +
     * dead-letter retention before the arrival. A replay later than this that finds no claim cannot tell "never
     * applied" from "applied, and the claim expired".
     */
    public Duration claimHorizonAfterArrival(Duration recordTtl) {
        return recordTtl.minus(sourceRetention).minus(deadLetterRetention);
    }
}
