package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import java.time.Duration;

/** The counts of a replay run, by outcome, and what they mean for the exit code. */
final class ReplayTally {

    private int sent;
    private int alreadyApplied;
    private int alreadyReplayed;
    private int alreadyArchived;
    private int refused;
    private int deferred;
    private int skipped;
    private int conflicts;
    private int checkFailed;
    private int notFound;
    private int held;
    private int paced;
    private Duration longestDelay = Duration.ZERO;

    /** Counts {@code outcome}; {@code stateBefore} tells a record replayed earlier from one archived. */
    void add(ReplayOutcome outcome, QuarantineState stateBefore) {
        if (outcome instanceof ReplayOutcome.Sent s) {
            sent++;
            if (!s.delay().isZero()) {
                paced++;
                longestDelay = s.delay().compareTo(longestDelay) > 0 ? s.delay() : longestDelay;
            }
        } else if (outcome instanceof ReplayOutcome.Held) {
            held++;
        } else if (outcome instanceof ReplayOutcome.AlreadyApplied) {
            alreadyApplied++;
        } else if (outcome instanceof ReplayOutcome.Refused) {
            refused++;
        } else if (outcome instanceof ReplayOutcome.Deferred) {
            deferred++;
        } else if (outcome instanceof ReplayOutcome.NotReplayable) {
            if (stateBefore == QuarantineState.REPLAYED) {
                alreadyReplayed++;
            } else if (stateBefore == QuarantineState.ARCHIVED) {
                alreadyArchived++;
            } else {
                skipped++;
            }
        } else if (outcome instanceof ReplayOutcome.Conflict) {
            conflicts++;
        } else if (outcome instanceof ReplayOutcome.CheckFailed) {
            checkFailed++;
        } else {
            notFound++;
        }
    }

    int done() {
        return sent
                + alreadyApplied
                + alreadyReplayed
                + alreadyArchived
                + refused
                + deferred
                + skipped
                + conflicts
                + checkFailed
                + notFound
                + held;
    }

    /** Replayed by this run: sent, or found applied already (marked REPLAYED, nothing sent). */
    int replayed() {
        return sent + alreadyApplied;
    }

    int sent() {
        return sent;
    }

    /**
     * Whether this run replayed every dead letter (sent it, or found it applied already). One already resolved before
     * the run, REPLAYED or ARCHIVED alike, was not replayed by it: the same answer for both, and exit 1.
     */
    boolean allReplayed() {
        return alreadyReplayed
                        + alreadyArchived
                        + refused
                        + deferred
                        + skipped
                        + conflicts
                        + checkFailed
                        + notFound
                        + held
                == 0;
    }

    /** Dead letters held by their lane's pace: its dependency's breaker is open, or it is booked up ahead. */
    int held() {
        return held;
    }

    /** The short counts for the progress line. */
    String compact(boolean dryRun) {
        return (dryRun ? "would send " : "sent ") + sent + pacing() + " · applied " + alreadyApplied + " · refused "
                + refused + (held > 0 ? " · held " + held : "") + " · other "
                + (deferred + skipped + conflicts + checkFailed + notFound + alreadyReplayed + alreadyArchived);
    }

    /** How the pace spread the sends: " (paced 42, the last visible in 4.1 s)", or nothing. */
    private String pacing() {
        return paced == 0
                ? ""
                : " (paced " + paced + ", the last visible in " + longestDelay.toMillis() / 100 / 10.0 + " s)";
    }

    /** The summary sentence's counts. */
    String describe(boolean dryRun) {
        StringBuilder b = new StringBuilder();
        b.append(dryRun ? "would send " : "sent ").append(sent).append(pacing());
        b.append(", already applied (nothing ")
                .append(dryRun ? "would be " : "")
                .append("sent) ")
                .append(alreadyApplied);
        b.append(", ")
                .append(dryRun ? "would be refused " : "refused and archived ")
                .append(refused);
        if (alreadyReplayed + alreadyArchived > 0) {
            b.append(", already resolved (nothing sent) ")
                    .append(alreadyReplayed + alreadyArchived)
                    .append(" (REPLAYED ")
                    .append(alreadyReplayed)
                    .append(", ARCHIVED ")
                    .append(alreadyArchived)
                    .append(')');
        }
        if (deferred > 0) {
            b.append(", deferred (key in progress) ").append(deferred);
        }
        if (skipped > 0) {
            b.append(", skipped ").append(skipped);
        }
        if (held > 0) {
            b.append(", held by the replay pace (the dependency's breaker is open, or its replays are booked up to ")
                    .append("the horizon; run the same command again later) ")
                    .append(held);
        }
        if (conflicts > 0) {
            b.append(", conflicts ").append(conflicts);
        }
        if (checkFailed > 0) {
            b.append(", checks failed (nothing changed; run the same command again) ")
                    .append(checkFailed);
        }
        if (notFound > 0) {
            b.append(", not found ").append(notFound);
        }
        return b.toString();
    }

    ObjectNode json() {
        ObjectNode n = Json.object();
        n.put("sent", sent);
        n.put("alreadyApplied", alreadyApplied);
        n.put("alreadyReplayed", alreadyReplayed);
        n.put("alreadyArchived", alreadyArchived);
        n.put("refused", refused);
        n.put("deferred", deferred);
        n.put("skipped", skipped);
        n.put("conflicts", conflicts);
        n.put("checkFailed", checkFailed);
        n.put("notFound", notFound);
        n.put("held", held);
        n.put("paced", paced);
        n.put("longestPaceDelayMs", longestDelay.toMillis());
        return n;
    }
}
