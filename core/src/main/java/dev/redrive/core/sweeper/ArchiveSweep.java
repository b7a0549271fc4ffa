package dev.redrive.core.sweeper;

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
 * ledger record shrinks to a tombstone pointing at its object.
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
        Map<LocalDate, List<ArchiveStore.Entry>> byDay = new LinkedHashMap<>();
        Map<LocalDate, Long> charsByDay = new HashMap<>();
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
                QuarantineRecord toArchive = r;
                String reason;
                if (!state.resolved()) {
                    reason = "retention of " + settings.retention() + " expired before it was resolved (it was " + state
                            + ")";
                    Optional<QuarantineRecord> saved =
                            ledger.save(r.moveTo(QuarantineState.ARCHIVED, Actor.AUTOMATION, reason, now), fence);
                    if (saved.isEmpty()) {
                        continue; // changed meanwhile; the next run looks again (or the lease is gone: caught below)
                    }
                    toArchive = saved.get();
                } else if (state == QuarantineState.ARCHIVED) {
                    reason = "archived: " + r.note();
                } else {
                    reason = "retention of " + settings.retention() + " expired; it was " + state
                            + (r.note().isEmpty() ? "" : ": " + r.note());
                }
                ArchiveStore.Entry entry = entryOf(toArchive, reason);
                String body = entry.body();
                LocalDate day = LocalDate.ofInstant(r.arrivedAt(), ZoneOffset.UTC);
                List<ArchiveStore.Entry> object = byDay.computeIfAbsent(day, d -> new ArrayList<>());
                object.add(entry);
                if (charsByDay.merge(day, (long) body.length(), Long::sum) >= settings.archiveObjectChars()) {
                    // Full: written now, so a run never holds more than one object's payloads per day.
                    byDay.remove(day);
                    charsByDay.remove(day);
                    if (!write(route, day, object, fence, report)) {
                        return false;
                    }
                }
            }
        }
        for (Map.Entry<LocalDate, List<ArchiveStore.Entry>> day : byDay.entrySet()) {
            if (!write(route, day.getKey(), day.getValue(), fence, report)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The archive's entry of {@code r}: its whole payload, read through its claim check when it came as one (the
     * pointer's payload expires with the store's lifecycle, the archive's does not). When that payload is already gone,
     * the pointer is archived, and the reason says so.
     *
     * @throws RuntimeException when the claim-check store cannot be read now: nothing of this run is written, and the
     *                          next run tries again
     */
    private ArchiveStore.Entry entryOf(QuarantineRecord r, String reason) {
        ClaimChecks.Read read = claimChecks.read(payloads.bodyOf(r).orElse(""), r.stringAttributes());
        if (!read.claimCheck()) {
            return new ArchiveStore.Entry(r, read.stored(), reason);
        }
        return read.missing() == null
                ? new ArchiveStore.Entry(r, read.payload(), reason, read.stored())
                : new ArchiveStore.Entry(
                        r, read.stored(), reason + "; only its claim check is kept: " + read.missing(), read.stored());
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
