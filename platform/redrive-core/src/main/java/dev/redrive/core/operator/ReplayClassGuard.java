package dev.redrive.core.operator;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rule every operator interface applies before a replay (the CLI's {@code --allow-class}, the console's bulk
 * replay): a POISON dead letter (it crashed or timed out the consumer) or a PERMANENT one (a business rule said no)
 * fails the same way again unless its cause was fixed, so a replay that takes one in is refused before anything
 * changes unless the person allows its class explicitly, and then each one is named with why it failed. Dead letters
 * already resolved (REPLAYED, ARCHIVED) are left to the replay, which says so.
 *
 * @param allowed the guarded classes the person allows explicitly
 */
public record ReplayClassGuard(Set<FailureClass> allowed) {

    /** The classes a replay takes in only when the person allows them explicitly. */
    public static final Set<FailureClass> GUARDED = EnumSet.of(FailureClass.POISON, FailureClass.PERMANENT);

    /**
     * @throws IllegalArgumentException when {@code allowed} names a class that needs no allowing
     */
    public ReplayClassGuard {
        for (FailureClass c : allowed) {
            if (!GUARDED.contains(c)) {
                throw new IllegalArgumentException(
                        "only POISON or PERMANENT need allowing; " + c + " dead letters are replayed without it");
            }
        }
        allowed = allowed.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(allowed));
    }

    /** A guard that allows no guarded class. */
    public static ReplayClassGuard none() {
        return new ReplayClassGuard(Set.of());
    }

    /** What the guard says of {@code records}: the guarded ones it refuses and the ones it lets through with a warning. */
    public Verdict check(Collection<QuarantineRecord> records) {
        List<Flagged> refused = new ArrayList<>();
        List<Flagged> warned = new ArrayList<>();
        for (QuarantineRecord r : records) {
            FailureClass c = r.classification().failureClass();
            if (!GUARDED.contains(c) || r.state().resolved()) {
                continue;
            }
            Flagged f = new Flagged(
                    r.id(),
                    c,
                    r.classification().errorType() + ": " + r.classification().reason());
            (allowed.contains(c) ? warned : refused).add(f);
        }
        return new Verdict(records.size(), List.copyOf(refused), List.copyOf(warned));
    }

    /**
     * A guarded dead letter.
     *
     * @param why its error type and reason, as it failed
     */
    public record Flagged(String quarantineId, FailureClass failureClass, String why) {

        /** The warning shown when it is replayed anyway. */
        public String warning() {
            return quarantineId + " failed as " + failureClass + " (" + why + "); it fails the same way unless the "
                    + "cause was fixed";
        }
    }

    /**
     * The guard's answer for a set of dead letters.
     *
     * @param checked how many dead letters were checked
     * @param refused guarded dead letters whose class was not allowed: the replay must not start
     * @param warned  guarded dead letters whose class was allowed: replayed, each with a warning
     */
    public record Verdict(int checked, List<Flagged> refused, List<Flagged> warned) {

        /** Whether the replay may start. */
        public boolean passes() {
            return refused.isEmpty();
        }

        /** The classes of the refused dead letters, in order (what the person would have to allow). */
        public Set<FailureClass> refusedClasses() {
            Set<FailureClass> classes = new TreeSet<>();
            refused.forEach(f -> classes.add(f.failureClass()));
            return classes;
        }

        /** The refusal in one sentence: how many of how many, of which classes, and why they are refused. */
        public String refusal() {
            return refused.size() + " of " + checked + " dead letter(s) failed as "
                    + String.join(",", refusedClasses().stream().map(Enum::name).toList())
                    + ", and a replay fails the same way unless the cause was fixed";
        }
    }
}
