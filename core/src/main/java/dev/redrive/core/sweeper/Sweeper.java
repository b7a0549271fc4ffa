package dev.redrive.core.sweeper;

import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.lease.Lease;
import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.PayloadStore;
import dev.redrive.core.replay.ReplayService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

    private final DeadLetterSource source;
    private final QuarantineLedger ledger;
    private final LeaseStore leases;
    private final ClaimStore claims;
    private final Map<String, ? extends IdempotentConsumer<?>> consumers;
    private final PayloadStore payloads;
    private final AutoReplaySweep autoReplay;
    private final ArchiveSweep archive;
    private final ReplayStats stats;
    private final SweeperSettings settings;
    private final Clock clock;

    private Sweeper(Builder b) {
        this.source = require(b.deadLetters, "a dead-letter source");
        this.ledger = require(b.ledger, "a quarantine ledger");
        this.leases = require(b.leases, "a lease store");
        this.claims = require(b.claims, "the consumers' claim store");
        this.consumers = Map.copyOf(require(b.consumers, "the deployed consumers"));
        this.payloads = require(b.payloads, "a payload store");
        this.stats = require(b.stats, "replay statistics");
        this.settings = b.settings;
        this.clock = b.clock;
        this.autoReplay = new AutoReplaySweep(
                ledger,
                require(b.windows, "the maintenance windows"),
                require(b.replays, "a replay service"),
                stats,
                leases,
                clock,
                b.replayBatch == null ? settings.archiveBatch() : b.replayBatch);
        this.archive =
                new ArchiveSweep(ledger, require(b.archive, "an archive store"), payloads, settings, leases, clock);
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
            boolean ok = quarantineArrivals(route, fence, timeLeft, report)
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

    private boolean quarantineArrivals(
            Route route, Optional<LeaseToken> fence, BooleanSupplier timeLeft, SweepReport report) {
        int seen = 0;
        while (seen < settings.maxArrivalsPerRun() && timeLeft.getAsBoolean()) {
            List<ArrivedDeadLetter> batch = source.receive(route.deadLetterQueue());
            if (batch.isEmpty()) {
                return true;
            }
            List<ArrivedDeadLetter> durable = new ArrayList<>();
            for (ArrivedDeadLetter letter : batch) {
                report.arrivalAged(Duration.between(letter.sentAt(), clock.instant()));
                if (!quarantine(route, letter, fence, report)) {
                    source.delete(route.deadLetterQueue(), durable);
                    return false; // lease lost: stop; the undeleted letters come back to the next sweeper
                }
                durable.add(letter);
            }
            source.delete(route.deadLetterQueue(), durable);
            seen += batch.size();
        }
        return true;
    }

    /** Records {@code letter}; false only when the lease was lost. */
    private boolean quarantine(Route route, ArrivedDeadLetter letter, Optional<LeaseToken> fence, SweepReport report) {
        Instant now = clock.instant();
        if (letter.replay().isPresent()) {
            Optional<QuarantineRecord> replayed =
                    ledger.find(letter.replay().get().quarantineId());
            if (replayed.isPresent()) {
                return reopen(replayed.get(), letter, fence, report, now);
            }
        }
        String consumer = letter.attached()
                .map(ArrivedDeadLetter.AttachedFailure::consumer)
                .filter(consumers::containsKey)
                .orElse(route.consumer());
        String key = letter.attached()
                .map(ArrivedDeadLetter.AttachedFailure::idempotencyKey)
                .orElseGet(() -> keyOf(consumer, letter));
        Optional<ClaimRecord> claim = key == null ? Optional.empty() : claims.find(IdempotencyKey.parse(key), now);
        DeadLetterEvidence evidence = DeadLetterEvidence.classify(
                letter.attached().map(ArrivedDeadLetter.AttachedFailure::failure), claim, letter.receiveCount(), now);
        String id = QuarantineIds.of(route.deadLetterQueue(), letter.sourceMessageId());
        boolean large = letter.body().length() > settings.inlineBodyLimit();
        String reason = "arrived in " + route.deadLetterQueue() + ": "
                + evidence.classification().failureClass() + " "
                + evidence.classification().errorType() + " — "
                + evidence.classification().reason();
        QuarantineRecord record = new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                consumer,
                route.sourceQueue(),
                route.deadLetterQueue(),
                key,
                evidence.classification(),
                evidence.firstFailedAt(),
                evidence.lastFailedAt(),
                now,
                letter.receiveCount(),
                letter.sourceMessageId(),
                large ? null : letter.body(),
                large ? payloads.put(id, letter.body()) : null,
                letter.attributes(),
                0,
                reason,
                null,
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, now, Actor.AUTOMATION, reason)),
                0);
        if (ledger.insertIfAbsent(record, fence)) {
            report.quarantined(evidence.classification().failureClass());
            return true;
        }
        if (!leases.holds(fence.orElseThrow(), clock.instant())) {
            return false;
        }
        report.alreadyQuarantined();
        return true;
    }

    private boolean reopen(
            QuarantineRecord replayed,
            ArrivedDeadLetter letter,
            Optional<LeaseToken> fence,
            SweepReport report,
            Instant now) {
        if (replayed.state() != QuarantineState.REPLAYED) {
            report.alreadyQuarantined(); // this return was seen already
            return true;
        }
        Optional<ClaimRecord> claim = replayed.key().flatMap(k -> claims.find(IdempotencyKey.parse(k), now));
        DeadLetterEvidence evidence = DeadLetterEvidence.classify(
                letter.attached().map(ArrivedDeadLetter.AttachedFailure::failure), claim, letter.receiveCount(), now);
        String reason = "replay #" + replayed.replayCount() + " dead-lettered again: "
                + evidence.classification().failureClass() + " "
                + evidence.classification().errorType();
        QuarantineRecord reopened = replayed.withEvidence(
                        evidence.classification(),
                        evidence.firstFailedAt(),
                        evidence.lastFailedAt(),
                        letter.receiveCount())
                .moveTo(QuarantineState.QUARANTINED, Actor.AUTOMATION, reason, now);
        if (ledger.save(reopened, fence).isEmpty()) {
            if (!leases.holds(fence.orElseThrow(), clock.instant())) {
                return false;
            }
            report.alreadyQuarantined();
            return true;
        }
        stats.add(replayed.classification().failureClass(), 0, 1);
        report.replayReturned(replayed.classification().failureClass());
        return true;
    }

    private String keyOf(String consumerName, ArrivedDeadLetter letter) {
        IdempotentConsumer<?> consumer = consumers.get(consumerName);
        if (consumer == null) {
            return null;
        }
        return consumer.producerKey(new IncomingMessage(
                        letter.messageId(), null, letter.body(), letter.attributes(), letter.receiveCount(), "", null))
                .map(producerKey -> new IdempotencyKey(consumer.name(), producerKey).value())
                .orElse(null); // no key: the evidence says so
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
        private Map<String, ? extends IdempotentConsumer<?>> consumers;
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
        public Builder consumers(Map<String, ? extends IdempotentConsumer<?>> consumers, ClaimStore claims) {
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

    private void oldestUnresolved(Route route, SweepReport report) {
        Instant now = clock.instant();
        Instant oldest = null;
        for (QuarantineState s : QuarantineState.values()) {
            if (s.resolved()) {
                continue;
            }
            for (QuarantineRecord r : ledger.inState(s, Optional.of(route.sourceQueue()), 1)) {
                if (oldest == null || r.arrivedAt().isBefore(oldest)) {
                    oldest = r.arrivedAt();
                }
            }
        }
        report.oldestUnresolved(oldest == null ? Duration.ZERO : Duration.between(oldest, now));
    }
}
