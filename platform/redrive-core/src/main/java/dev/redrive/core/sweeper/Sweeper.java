package dev.redrive.core.sweeper;

import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.lease.Lease;
import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.PayloadStore;
import dev.redrive.core.replay.ReplayService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One sweep of one dead-letter queue, under a lease with a fencing token:
 * <ol>
 *   <li><b>quarantine</b> every arrival: classify it from the evidence, write its ledger record (once, however often
 *       it is seen), and only then delete it from the queue — nothing is lost if the sweep dies anywhere;</li>
 *   <li><b>auto-replay</b> what is pre-approved ({@link AutoReplaySweep}), and resume replays already started;</li>
 *   <li><b>archive</b> what is past retention ({@link ArchiveSweep}).</li>
 * </ol>
 * A second sweeper finds the lease held and does nothing; a late one whose lease was taken over has every write
 * rejected and stops.
 */
public final class Sweeper {

    private final QuarantineLedger ledger;
    private final LeaseStore leases;
    private final ArrivalSweep arrivals;
    private final AutoReplaySweep autoReplay;
    private final ArchiveSweep archive;
    private final Clock clock;

    private Sweeper(Builder b) {
        this.ledger = require(b.ledger, "a quarantine ledger");
        this.leases = require(b.leases, "a lease store");
        this.clock = b.clock;
        SweeperSettings settings = b.settings;
        PayloadStore payloads = require(b.payloads, "a payload store");
        ReplayStats stats = require(b.stats, "replay statistics");
        ReplayService replays = require(b.replays, "a replay service");
        this.arrivals = new ArrivalSweep(
                require(b.deadLetters, "a dead-letter source"),
                ledger,
                leases,
                require(b.claims, "the consumers' claim store"),
                require(b.consumers, "the deployed consumers"),
                payloads,
                replays.claimChecks(),
                stats,
                settings,
                clock);
        this.autoReplay = new AutoReplaySweep(
                ledger,
                require(b.windows, "the maintenance windows"),
                replays,
                stats,
                leases,
                clock,
                b.replayBatch == null ? settings.archiveBatch() : b.replayBatch);
        this.archive = new ArchiveSweep(
                ledger,
                require(b.archive, "an archive store"),
                payloads,
                replays.claimChecks(),
                settings,
                leases,
                clock);
    }

    /**
     * A builder. Defaults: {@link SweeperSettings#DEFAULT}, the system's UTC clock, and as many replays resumed or
     * approved per state and run as the settings' archive batch; everything else must be given.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Sweeps {@code route}'s dead-letter queue.
     *
     * @param owner    who sweeps (the function instance), recorded on the lease
     * @param leaseFor how long the lease lasts (the invocation's remaining time plus a margin)
     * @param timeLeft whether there is time for another batch
     */
    public SweepReport sweep(Route route, String owner, Duration leaseFor, BooleanSupplier timeLeft) {
        SweepReport report = new SweepReport(route);
        Optional<Lease> lease = leases.acquire(route.leaseName(), owner, leaseFor, clock.instant());
        if (lease.isEmpty()) {
            report.leaseHeldElsewhere();
            return report;
        }
        Optional<LeaseToken> fence = Optional.of(lease.get().fence());
        try {
            boolean ok = arrivals.run(route, fence, timeLeft, report)
                    && autoReplay.run(route, fence, timeLeft, report)
                    && archive.run(route, fence, timeLeft, report);
            if (!ok) {
                report.fencedOut();
            }
            oldestUnresolved(route, report);
        } finally {
            leases.release(lease.get(), clock.instant());
        }
        return report;
    }

    private static <T> T require(T value, String what) {
        if (value == null) {
            throw new IllegalStateException("a sweeper needs " + what);
        }
        return value;
    }

    /** Builds a {@link Sweeper}. */
    public static final class Builder {
        private DeadLetterSource deadLetters;
        private QuarantineLedger ledger;
        private LeaseStore leases;
        private ClaimStore claims;
        private Map<String, ? extends KeyReader> consumers;
        private PayloadStore payloads;
        private MaintenanceWindows windows;
        private ReplayService replays;
        private ReplayStats stats;
        private ArchiveStore archive;
        private SweeperSettings settings = SweeperSettings.DEFAULT;
        private Clock clock = Clock.systemUTC();
        private Integer replayBatch;

        private Builder() {}

        public Builder deadLetters(DeadLetterSource deadLetters) {
            this.deadLetters = deadLetters;
            return this;
        }

        public Builder ledger(QuarantineLedger ledger) {
            this.ledger = ledger;
            return this;
        }

        /** The sweeper's own leases (one per dead-letter queue). */
        public Builder leases(LeaseStore leases) {
            this.leases = leases;
            return this;
        }

        /** The consumers deployed with the sweeper, by name, and the claim store they claim in. */
        public Builder consumers(Map<String, ? extends KeyReader> consumers, ClaimStore claims) {
            this.consumers = consumers;
            this.claims = claims;
            return this;
        }

        public Builder payloads(PayloadStore payloads) {
            this.payloads = payloads;
            return this;
        }

        public Builder windows(MaintenanceWindows windows) {
            this.windows = windows;
            return this;
        }

        public Builder replays(ReplayService replays) {
            this.replays = replays;
            return this;
        }

        public Builder stats(ReplayStats stats) {
            this.stats = stats;
            return this;
        }

        public Builder archive(ArchiveStore archive) {
            this.archive = archive;
            return this;
        }

        public Builder settings(SweeperSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How many records per state and run the auto-replay looks at (default: the settings' archive batch). */
        public Builder replayBatch(int replayBatch) {
            if (replayBatch < 1) {
                throw new IllegalArgumentException("replayBatch must be positive");
            }
            this.replayBatch = replayBatch;
            return this;
        }

        public Sweeper build() {
            return new Sweeper(this);
        }
    }

    /**
     * The oldest unresolved record of the route's queue: the queue's counts say which unresolved states hold any (one
     * read), and the oldest of each of those is read on its own ({@link QuarantineLedger#oldestActive}), so the cost
     * does not grow with the ledger.
     */
    private void oldestUnresolved(Route route, SweepReport report) {
        Instant now = clock.instant();
        Instant oldest = null;
        for (QuarantineState s : ledger.countActiveByState(route.sourceQueue()).keySet()) {
            if (s.resolved()) {
                continue;
            }
            Optional<QuarantineRecord> first = ledger.oldestActive(s, route.sourceQueue());
            if (first.isPresent() && (oldest == null || first.get().arrivedAt().isBefore(oldest))) {
                oldest = first.get().arrivedAt();
            }
        }
        report.oldestUnresolved(oldest == null ? Duration.ZERO : Duration.between(oldest, now));
    }
}
