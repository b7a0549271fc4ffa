package dev.redrive.core.replay;

import java.time.Duration;
import java.time.Instant;

/** What a replay request did to one dead letter. */
public sealed interface ReplayOutcome {

    String quarantineId();

    /** In words, for operators. */
    String describe();

    /**
     * Sent back to its source queue (or, in a dry run, would be).
     *
     * @param delay how long after the send it becomes visible there: its slot in its lane's pace (zero when unpaced)
     */
    record Sent(
            String quarantineId,
            String sourceQueue,
            String messageId,
            int replayCount,
            String upcast,
            boolean dryRun,
            Duration delay)
            implements ReplayOutcome {
        public Sent {
            delay = delay == null || delay.isNegative() ? Duration.ZERO : delay;
        }

        public String describe() {
            return (dryRun ? "would send" : "sent") + " to " + sourceQueue
                    + (upcast.isEmpty() ? "" : " (" + upcast + ")")
                    + (dryRun ? "" : " as message " + messageId + ", replay #" + replayCount)
                    + (delay.isZero() ? "" : ", visible after " + delay.toMillis() / 1000.0 + " s (paced)");
        }
    }

    /**
     * Held back by its lane's pace, untouched: the dependency's breaker is open, or the lane is booked up to its
     * horizon. A later run (the sweeper's next, or the same command again) replays it.
     *
     * @param lane  the dependency (or {@code consumer:<name>}) its replay would reach
     * @param until when it could go, as far as is known now
     */
    record Held(String quarantineId, String lane, String reason, Instant until) implements ReplayOutcome {
        public String describe() {
            return "held: " + reason + "; left for the next run";
        }
    }

    /** Already applied: marked REPLAYED, nothing sent. */
    record AlreadyApplied(String quarantineId, String key, boolean dryRun) implements ReplayOutcome {
        public String describe() {
            return "already applied under " + key + ": nothing " + (dryRun ? "would be " : "") + "sent";
        }
    }

    /** Its key is being processed right now; left for the next attempt. */
    record Deferred(String quarantineId, String key, Instant until) implements ReplayOutcome {
        public String describe() {
            return "in progress under " + key + " until " + until + ": left for the next run";
        }
    }

    /** Refused and archived with the reason (incompatible payload, unsafe key). */
    record Refused(String quarantineId, String reason, boolean dryRun) implements ReplayOutcome {
        public String describe() {
            return (dryRun ? "would refuse: " : "refused and archived: ") + reason;
        }
    }

    /** Not in a state a replay can start from (already replayed, archived). */
    record NotReplayable(String quarantineId, String reason) implements ReplayOutcome {
        public String describe() {
            return "skipped: " + reason;
        }
    }

    /** Someone else changed the record meanwhile (or this sweeper lost its lease); nothing was done. */
    record Conflict(String quarantineId, String reason) implements ReplayOutcome {
        public String describe() {
            return "conflict: " + reason;
        }
    }

    /**
     * Its checks could not be run now: a store they read failed for this record (its claim check's payload refused or
     * unreadable, the claim lookup, the schema check). Nothing was changed on it and nothing was sent; the rest of its
     * batch went on, and the next run (or the same command again) tries it again.
     */
    record CheckFailed(String quarantineId, String reason) implements ReplayOutcome {
        public String describe() {
            return "its checks failed: " + reason + "; nothing was changed, left for the next run";
        }
    }

    /**
     * An operator's edit of its payload was refused before anything else: it fails the consumer's current schema, it
     * changes the idempotency key, or the dead letter cannot be edited. Nothing was changed on it and nothing was sent.
     */
    record Rejected(String quarantineId, String reason, boolean dryRun) implements ReplayOutcome {
        public String describe() {
            return (dryRun ? "the edit would be refused, nothing would change: " : "edit refused, nothing changed: ")
                    + reason;
        }
    }

    /** No such dead letter. */
    record NotFound(String quarantineId) implements ReplayOutcome {
        public String describe() {
            return "no dead letter with this id";
        }
    }
}
