package dev.redrive.core.sweeper;

import dev.redrive.core.failure.Printable;
import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.PayloadStore;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Moves dead letters out of the active ledger into the archive store: every ARCHIVED one at once (a decision was
 * made: incompatible, unsafe, or a person's), and every other one once its state has not changed for the retention
 * (counted from its last state change, not its arrival: a late replay or a returned one starts it again; unresolved
 * ones are first ARCHIVED, the reason saying retention expired). Objects are batched per source queue and arrival day; each
 * ledger record shrinks to a tombstone pointing at its object. Each record is handled on its own: one whose payload
 * cannot be read now is left as it was and reported with the reason ({@link SweepReport#recordFailures}), and the rest
 * of its route is archived.
 */
final class ArchiveSweep {

    private final QuarantineLedger ledger;
    private final ArchiveStore store;
    private final PayloadStore payloads;
    private final ClaimChecks claimChecks;
    private final SweeperSettings settings;
    private final LeaseStore leases;
    private final Clock clock;

    ArchiveSweep(
            QuarantineLedger ledger,
            ArchiveStore store,
            PayloadStore payloads,
            ClaimChecks claimChecks,
            SweeperSettings settings,
            LeaseStore leases,
            Clock clock) {
        this.ledger = ledger;
        this.store = store;
        this.payloads = payloads;
        this.claimChecks = claimChecks;
        this.settings = settings;
        this.leases = leases;
        this.clock = clock;
    }

    /** Returns false when the lease was lost. */
    boolean run(Route route, Optional<LeaseToken> fence, BooleanSupplier timeLeft, SweepReport report) {
        Instant now = clock.instant();
        Instant cutoff = now.minus(settings.retention());
        PendingObjects pending = new PendingObjects(route, fence, report);
        Set<String> taken = new HashSet<>(); // a record ARCHIVED in this pass shows up again under ARCHIVED
        for (QuarantineState state : QuarantineState.values()) {
            List<QuarantineRecord> candidates = state == QuarantineState.ARCHIVED
                    ? ledger.inState(state, Optional.of(route.sourceQueue()), settings.archiveBatch())
                    : ledger.unchangedSince(state, cutoff, settings.archiveBatch());
            for (QuarantineRecord r : candidates) {
                if (r.archivedToStore() || !r.sourceQueue().equals(route.sourceQueue()) || !taken.add(r.id())) {
                    continue;
                }
                if (!timeLeft.getAsBoolean()) {
                    break;
                }
                Optional<ArchiveStore.Entry> entry = prepare(r, state, now, fence, report);
                if (entry.isPresent() && !pending.add(entry.get())) {
                    return false;
                }
            }
        }
        return pending.flush();
    }

    /**
     * The archive's entry of {@code r}, moved to ARCHIVED first when it is unresolved. Empty when it changed meanwhile
     * (or the lease is gone: caught when the object is written), or when its payload cannot be read now: that record
     * is reported with the reason and left as it was, the rest of the route is archived, and the next run tries it
     * again. One record never holds back its route.
     */
    private Optional<ArchiveStore.Entry> prepare(
            QuarantineRecord r, QuarantineState state, Instant now, Optional<LeaseToken> fence, SweepReport report) {
        ClaimChecks.Read read;
        try {
            read = claimChecks.read(payloads.bodyOf(r).orElse(""), r.stringAttributes());
        } catch (RuntimeException e) {
            report.recordFailed(r.id(), "archive", "its payload could not be read: " + Printable.thrown(e));
            return Optional.empty();
        }
        if (!state.resolved()) {
            String reason =
                    "retention of " + settings.retention() + " expired before it was resolved (it was " + state + ")";
            return ledger.save(r.moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, reason, now), fence)
                    .map(saved -> entryOf(saved, read, reason));
        }
        String reason = state == QuarantineState.ARCHIVED
                ? "archived: " + r.note()
                : "retention of " + settings.retention() + " expired; it was " + state
                        + (r.note().isEmpty() ? "" : ": " + r.note());
        return Optional.of(entryOf(r, read, reason));
    }

    /**
     * The archive's entry of {@code r}: its whole payload, read through its claim check when it came as one (the
     * pointer's payload expires with the store's lifecycle, the archive's does not). When that payload is gone (or
     * S3 refused it: gone or forbidden), the pointer is archived, and the reason says so.
     */
    private static ArchiveStore.Entry entryOf(QuarantineRecord r, ClaimChecks.Read read, String reason) {
        if (!read.claimCheck()) {
            return new ArchiveStore.Entry(r, read.stored(), reason);
        }
        return read.missing() == null
                ? new ArchiveStore.Entry(r, read.payload(), reason, read.stored())
                : new ArchiveStore.Entry(
                        r, read.stored(), reason + "; only its claim check is kept: " + read.missing(), read.stored());
    }

    /**
     * The entries of one run, batched per arrival day. An object is written as soon as it holds its bound of payload
     * characters, so a run never holds more than one object's payloads per day.
     */
    private final class PendingObjects {
        private final Route route;
        private final Optional<LeaseToken> fence;
        private final SweepReport report;
        private final Map<LocalDate, List<ArchiveStore.Entry>> byDay = new LinkedHashMap<>();
        private final Map<LocalDate, Long> charsByDay = new HashMap<>();

        PendingObjects(Route route, Optional<LeaseToken> fence, SweepReport report) {
            this.route = route;
            this.fence = fence;
            this.report = report;
        }

        /** Adds {@code entry}, writing its day's object once full; false when the lease was lost. */
        boolean add(ArchiveStore.Entry entry) {
            LocalDate day = LocalDate.ofInstant(entry.record().arrivedAt(), ZoneOffset.UTC);
            List<ArchiveStore.Entry> object = byDay.computeIfAbsent(day, d -> new ArrayList<>());
            object.add(entry);
            if (charsByDay.merge(day, (long) entry.body().length(), Long::sum) < settings.archiveObjectChars()) {
                return true;
            }
            byDay.remove(day);
            charsByDay.remove(day);
            return write(route, day, object, fence, report);
        }

        /** Writes what is left; false when the lease was lost. */
        boolean flush() {
            for (Map.Entry<LocalDate, List<ArchiveStore.Entry>> day : byDay.entrySet()) {
                if (!write(route, day.getKey(), day.getValue(), fence, report)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Writes one archive object and shrinks its records to tombstones; false when the lease was lost. */
    private boolean write(
            Route route,
            LocalDate day,
            List<ArchiveStore.Entry> entries,
            Optional<LeaseToken> fence,
            SweepReport report) {
        if (fence.isPresent() && fence.get().lapsed(clock.instant())) {
            return false; // past the lease: no object is written whose tombstones could not be
        }
        String ref = store.write(route.sourceQueue(), day, entries);
        List<QuarantineRecord> tombstones = new ArrayList<>();
        for (ArchiveStore.Entry e : entries) {
            tombstones.add(e.record().tombstone(ref));
        }
        int done = ledger.saveAll(tombstones, fence).size();
        // A refused tombstone changed meanwhile (the next run looks again), or the lease is gone.
        if (done < entries.size() && fence.isPresent() && !leases.holds(fence.get(), clock.instant())) {
            return false;
        }
        report.archived(ref, done);
        return true;
    }
}
