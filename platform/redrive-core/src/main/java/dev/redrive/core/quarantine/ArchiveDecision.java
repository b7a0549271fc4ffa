package dev.redrive.core.quarantine;

import java.time.Clock;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A person's decision to archive a dead letter instead of replaying it ({@code QUARANTINED | UNDER_REVIEW → ARCHIVED}),
 * with a note saying why. The automation never takes this decision (it archives only what a replay's checks refuse, and
 * what outlives retention); any other state is refused with the reason, and nothing is written. The write is conditional on the
 * version read, so a decision taken on a record that changed meanwhile is reported as a conflict, not applied.
 */
public final class ArchiveDecision {

    /** The states a person may archive from. */
    public static final Set<QuarantineState> ARCHIVABLE =
            EnumSet.of(QuarantineState.QUARANTINED, QuarantineState.UNDER_REVIEW);

    private final QuarantineLedger ledger;
    private final Clock clock;

    public ArchiveDecision(QuarantineLedger ledger, Clock clock) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Archives {@code quarantineId} on behalf of {@code person}, with {@code note} in the audit trail; with
     * {@code dryRun}, only says whether it would.
     *
     * @throws IllegalArgumentException when {@code person} is the automation or the note is blank
     */
    public Outcome archive(String quarantineId, Actor person, String note, boolean dryRun) {
        Objects.requireNonNull(person, "person");
        if (person.automated()) {
            throw new IllegalArgumentException("archiving by decision is a person's call, not the automation's");
        }
        if (note == null || note.isBlank()) {
            throw new IllegalArgumentException("an archive decision needs a note saying why");
        }
        Optional<QuarantineRecord> found = ledger.find(quarantineId);
        if (found.isEmpty()) {
            return new NotFound(quarantineId);
        }
        QuarantineRecord r = found.get();
        if (!ARCHIVABLE.contains(r.state())) {
            return new Refused(
                    quarantineId,
                    r.state(),
                    "it is " + r.state() + "; only " + ARCHIVABLE
                            + " dead letters can be archived by a person"
                            + (r.state() == QuarantineState.ARCHIVED
                                    ? " (it is archived already)"
                                    : r.state().resolved()
                                            ? ""
                                            : " (a replay is under way: "
                                                    + "let it finish, or resume it with a replay)"));
        }
        String reason = "archived by decision: " + note.strip();
        if (dryRun) {
            return new Archived(quarantineId, r.state(), reason, true);
        }
        Optional<QuarantineRecord> saved =
                ledger.save(r.moveTo(QuarantineState.ARCHIVED, person, reason, clock.instant()), Optional.empty());
        if (saved.isEmpty()) {
            return new Conflict(
                    quarantineId,
                    "dead letter " + quarantineId + " changed while it was being archived; "
                            + "look at it again and decide");
        }
        return new Archived(quarantineId, r.state(), reason, false);
    }

    /** What an archive decision did to one dead letter. */
    public sealed interface Outcome {

        String quarantineId();

        /** In words, for operators. */
        String describe();
    }

    /** Archived (or, in a dry run, would be) from {@code from}, with {@code reason} in the audit trail. */
    public record Archived(String quarantineId, QuarantineState from, String reason, boolean dryRun)
            implements Outcome {
        @Override
        public String describe() {
            return (dryRun ? "would archive" : "archived") + " (was " + from + "): " + reason;
        }
    }

    /** Not in a state a person may archive from; nothing was written. */
    public record Refused(String quarantineId, QuarantineState state, String reason) implements Outcome {
        @Override
        public String describe() {
            return "refused: " + reason;
        }
    }

    /** Someone else changed the record meanwhile; nothing was written. */
    public record Conflict(String quarantineId, String reason) implements Outcome {
        @Override
        public String describe() {
            return "conflict: " + reason;
        }
    }

    /** No such dead letter. */
    public record NotFound(String quarantineId) implements Outcome {
        @Override
        public String describe() {
            return "no dead letter with this id";
        }
    }
}
