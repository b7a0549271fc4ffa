package dev.redrive.core.consumer;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;

/** What happened to one message. */
public sealed interface MessageOutcome {

    /** Whether the message is done with and may be deleted from its queue. */
    boolean acknowledged();

    /** The effect was applied, under this fencing token. */
    record Applied(String key, long fencingToken, String result) implements MessageOutcome {
        public boolean acknowledged() {
            return true;
        }
    }

    /** The effect had already been applied under this key: acknowledged, nothing ran. */
    record Duplicate(String key) implements MessageOutcome {
        public boolean acknowledged() {
            return true;
        }
    }

    /**
     * Another worker holds a live lease on the key. The message comes back after {@code delaySeconds}: a backoff
     * delay, never later than the end of the lease (by then the holder has completed, and the message is a duplicate,
     * or its lease can be taken over).
     */
    record Deferred(String key, Instant leaseExpiresAt, int delaySeconds) implements MessageOutcome {
        public boolean acknowledged() {
            return false;
        }
    }

    /**
     * The consumer's dependency has its circuit breaker open: the effect was not started and the dependency not
     * called. The message comes back after {@code delaySeconds} (the rest of the open period, bounded by the receives
     * left: {@link EffectBreakers}); the refusal is recorded on the claim as a TRANSIENT failure of {@code dependency}.
     */
    record RefusedByBreaker(String key, String dependency, int delaySeconds) implements MessageOutcome {
        public boolean acknowledged() {
            return false;
        }
    }

    /** A TRANSIENT failure: the message comes back after {@code delaySeconds} (full-jitter backoff). */
    record RetryLater(String key, Classification classification, int delaySeconds) implements MessageOutcome {
        public boolean acknowledged() {
            return false;
        }
    }

    /**
     * A failure that no retry can fix (PERMANENT, SCHEMA): the message goes to the dead-letter queue at once with its
     * failure metadata. Acknowledged once the dead letter is durably sent.
     */
    record DeadLettered(String key, FailureRecord failure) implements MessageOutcome {
        public boolean acknowledged() {
            return true;
        }
    }

    /**
     * The effect ran but the claim had been taken over meanwhile (this worker stalled past its lease), so completion
     * was refused. Reported as failed: the next delivery sees the other worker's result.
     */
    record Superseded(String key, long fencingToken) implements MessageOutcome {
        public boolean acknowledged() {
            return false;
        }
    }

    /** Not finished before the invocation's deadline; its claim is left to expire. */
    record TimedOut(String key) implements MessageOutcome {
        public boolean acknowledged() {
            return false;
        }
    }

    /**
     * Not processed: an earlier message of the same FIFO group failed, so order requires it to wait. It comes back
     * with its head: after the head's delay when the head has one (a retry's backoff, a deferral), else after the
     * queue's visibility timeout, as the head does.
     *
     * @param messageGroupId the group
     * @param headMessageId  the message it waits behind
     * @param delaySeconds   the head's delay, or null when the head keeps its visibility
     */
    record SkippedAfterGroupFailure(String messageGroupId, String headMessageId, Integer delaySeconds)
            implements MessageOutcome {
        public boolean acknowledged() {
            return false;
        }
    }
}
