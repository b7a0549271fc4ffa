package dev.redrive.core.replay;

import java.time.Instant;

/** What a replay request did to one dead letter. */
public sealed interface ReplayOutcome {

    String quarantineId();

    /** In words, for operators. */
    String describe();

    /** Sent back to its source queue (or, in a dry run, would be). */
    record Sent(
            String quarantineId, String sourceQueue, String messageId, int replayCount, String upcast, boolean dryRun)
            implements ReplayOutcome {
        public String describe() {
            return (dryRun ? "would send" : "sent") + " to " + sourceQueue
                    + (upcast.isEmpty() ? "" : " (" + upcast + ")")
                    + (dryRun ? "" : " as message " + messageId + ", replay #" + replayCount);
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

    /** No such dead letter. */
    record NotFound(String quarantineId) implements ReplayOutcome {
        public String describe() {
            return "no dead letter with this id";
        }
    }
}
