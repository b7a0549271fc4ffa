package dev.redrive.core.operator;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.Printable;
import dev.redrive.core.names.UnknownName;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.EditCheck;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.PayloadEdit;
import dev.redrive.core.replay.PayloadStore;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The operator port over the ledger, the replay service, the archive decision, the windows, the queues and the replay
 * statistics. It records a sent replay in the statistics (per run and class for a batch approval, per replay for a run
 * one at a time, so a stopped run has counted what it sent), so a person's replay counts in the success rate the way
 * the sweeper's do.
 */
public final class LedgerOperator implements OperatorPort {

    /** How often a reveal is written again when the record changed between its read and its write. */
    private static final int REVEAL_ATTEMPTS = 5;

    private final QuarantineLedger ledger;
    private final ReplayService replays;
    private final ArchiveDecision archives;
    private final MaintenanceWindows windows;
    private final ReplayStats stats;
    private final DeadLetterSource queues;
    private final PayloadStore payloads;
    private final Clock clock;
    private final LedgerQueries queries;
    private final BreakerHolds holds;
    private final ClaimStore claims;

    private LedgerOperator(Builder b) {
        this.ledger = require(b.ledger, "a quarantine ledger");
        this.replays = require(b.replays, "a replay service");
        this.windows = require(b.windows, "the maintenance windows");
        this.stats = require(b.stats, "replay statistics");
        this.queues = require(b.queues, "the queues (a dead-letter source)");
        this.payloads = require(b.payloads, "a payload store");
        this.clock = b.clock;
        this.archives = new ArchiveDecision(ledger, clock);
        this.queries = new LedgerQueries(ledger, clock, b.sourceQueues);
        this.holds = b.breakers == null ? null : new BreakerHolds(b.breakers, windows, b.dependencies);
        this.claims = b.claims;
    }

    @Override
    public Map<String, List<BreakerTransition>> breakerHistories() {
        Map<String, List<BreakerTransition>> histories = new LinkedHashMap<>();
        if (holds != null) {
            holds.dependencies().forEach(d -> histories.put(d, holds.store().history(d)));
        }
        return histories;
    }

    @Override
    public Map<String, BreakerState> breakers() {
        Map<String, BreakerState> states = new LinkedHashMap<>();
        if (holds != null) {
            holds.dependencies().forEach(d -> states.put(d, holds.store().read(d)));
        }
        return states;
    }

    /** A builder; the clock defaults to the system's UTC clock, everything else must be given. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public List<QuarantineRecord> list(QuarantineQuery query) {
        return queries.list(query);
    }

    @Override
    public Optional<QuarantineRecord> show(String quarantineId) {
        return ledger.find(quarantineId);
    }

    @Override
    public Optional<String> payload(QuarantineRecord record) {
        return payloads.bodyOf(record);
    }

    @Override
    public QuarantineRecord recordReveal(String quarantineId, Actor person, List<String> sensitivePaths) {
        requirePerson(person);
        String reason = sensitivePaths.isEmpty()
                ? "revealed the payload (no field in it is marked sensitive)"
                : sensitivePaths.equals(List.of("$"))
                        ? "revealed the whole payload (withheld, since its sensitive fields cannot be told apart)"
                        : "revealed the payload's sensitive fields: " + String.join(", ", sensitivePaths);
        for (int attempt = 1; attempt <= REVEAL_ATTEMPTS; attempt++) {
            QuarantineRecord r = ledger.find(quarantineId)
                    .orElseThrow(() -> new IllegalArgumentException("no dead letter '" + quarantineId + "'"));
            Optional<QuarantineRecord> saved =
                    ledger.save(r.revealed(person, reason, clock.instant()), Optional.empty());
            if (saved.isPresent()) {
                return saved.get();
            }
        }
        throw new IllegalStateException("the reveal of " + quarantineId + " could not be recorded: the record changed "
                + "under each of " + REVEAL_ATTEMPTS + " writes");
    }

    @Override
    public Optional<ClaimRecord> claim(QuarantineRecord record) {
        if (claims == null) {
            throw new IllegalStateException("this operator port was built without the claim store, so claims cannot "
                    + "be read (LedgerOperator.Builder.claims)");
        }
        if (record.idempotencyKey() == null) {
            return Optional.empty();
        }
        return claims.find(IdempotencyKey.parse(record.idempotencyKey()), clock.instant());
    }

    @Override
    public Map<String, ReplayOutcome> approveReplay(
            List<String> quarantineIds, Actor person, String reason, boolean dryRun) {
        requirePerson(person);
        Map<String, ReplayOutcome> outcomes = new LinkedHashMap<>();
        if (dryRun) {
            quarantineIds.forEach(id -> outcomes.put(id, replays.replay(id, person, reason, Optional.empty(), true)));
            return outcomes;
        }
        Map<FailureClass, Integer> sent = new EnumMap<>(FailureClass.class);
        try {
            replays.attemptAll(quarantineIds, person, reason, Optional.empty()).forEach((id, attempt) -> {
                outcomes.put(id, attempt.outcome());
                if (attempt.outcome() instanceof ReplayOutcome.Sent) {
                    sent.merge(classOf(attempt), 1, Integer::sum);
                }
            });
        } finally {
            sent.forEach((c, count) -> stats.add(c, count, 0)); // one write per class and approval
        }
        return outcomes;
    }

    @Override
    public RunResult replayEach(
            List<String> quarantineIds,
            Actor person,
            String reason,
            boolean dryRun,
            RunListener<ReplayOutcome> listener) {
        if (!dryRun) {
            requirePerson(person);
        }
        int done = 0;
        for (String id : quarantineIds) {
            if (listener.stopRequested()) {
                return new RunResult(quarantineIds.size(), done, true, Optional.empty());
            }
            ReplayService.Attempt attempt;
            try {
                attempt = replays.attempt(id, person, reason, Optional.empty(), dryRun);
                if (!dryRun && attempt.outcome() instanceof ReplayOutcome.Sent) {
                    stats.add(classOf(attempt), 1, 0);
                }
            } catch (RuntimeException e) {
                return new RunResult(quarantineIds.size(), done, false, Optional.of(new RunResult.Failure(id, e)));
            }
            done++;
            listener.done(id, attempt.before().map(QuarantineRecord::state), attempt.outcome());
        }
        return new RunResult(quarantineIds.size(), done, false, Optional.empty());
    }

    @Override
    public EditedReplay replayEdited(
            String quarantineId, String editedPayload, Actor person, String reason, boolean dryRun) {
        if (!dryRun) {
            requirePerson(person);
        }
        Objects.requireNonNull(editedPayload, "editedPayload");
        PayloadEdit edit =
                new PayloadEdit(editedPayload, dryRun && (reason == null || reason.isBlank()) ? "dry run" : reason);
        Optional<QuarantineRecord> record = ledger.find(quarantineId);
        if (record.isEmpty()) {
            return new EditedReplay(new ReplayOutcome.NotFound(quarantineId), Optional.empty());
        }
        Optional<EditCheck> checks = Optional.empty();
        if (!record.get().state().resolved() && !record.get().archivedToStore()) {
            try {
                checks = Optional.of(replays.checkEdit(record.get(), editedPayload));
            } catch (RuntimeException e) { // a store the checks read failed: said, nothing changed
                return new EditedReplay(
                        new ReplayOutcome.CheckFailed(quarantineId, Printable.thrown(e)), Optional.empty());
            }
        }
        ReplayService.Attempt attempt = replays.attemptEdited(quarantineId, edit, person, dryRun);
        if (!dryRun && attempt.outcome() instanceof ReplayOutcome.Sent) {
            stats.add(classOf(attempt), 1, 0);
        }
        return new EditedReplay(attempt.outcome(), checks);
    }

    @Override
    public Map<String, ArchiveDecision.Outcome> archive(
            List<String> quarantineIds, Actor person, String note, boolean dryRun) {
        requirePerson(person);
        Map<String, ArchiveDecision.Outcome> outcomes = new LinkedHashMap<>();
        quarantineIds.forEach(id -> outcomes.put(id, archives.archive(id, person, note, dryRun)));
        return outcomes;
    }

    @Override
    public RunResult archiveEach(
            List<String> quarantineIds,
            Actor person,
            String note,
            boolean dryRun,
            RunListener<ArchiveDecision.Outcome> listener) {
        requirePerson(person);
        if (note == null || note.isBlank()) {
            throw new IllegalArgumentException("an archive decision needs a note saying why");
        }
        int done = 0;
        for (String id : quarantineIds) {
            if (listener.stopRequested()) {
                return new RunResult(quarantineIds.size(), done, true, Optional.empty());
            }
            ArchiveDecision.Outcome outcome;
            try {
                outcome = archives.archive(id, person, note, dryRun);
            } catch (RuntimeException e) {
                return new RunResult(quarantineIds.size(), done, false, Optional.of(new RunResult.Failure(id, e)));
            }
            done++;
            listener.done(id, stateBefore(outcome), outcome);
        }
        return new RunResult(quarantineIds.size(), done, false, Optional.empty());
    }

    @Override
    public RouteStatus status(Route route, Duration since) {
        return queries.status(route, queues, since);
    }

    @Override
    public List<QuarantineRecord> arrivedSince(String sourceQueue, Instant from) {
        return queries.arrivedSince(sourceQueue, from);
    }

    @Override
    public Optional<QuarantineRecord> lastArrivedBefore(
            String sourceQueue, Instant before, Predicate<QuarantineRecord> matching) {
        return ledger.lastOfQueueBefore(sourceQueue, before, matching);
    }

    @Override
    public Map<FailureClass, ReplayStats.Totals> replayTotals() {
        return stats.totals();
    }

    @Override
    public MaintenanceWindow addWindow(MaintenanceWindow window) {
        if (holds == null) {
            if (window.holdsBreaker()) {
                throw new IllegalArgumentException("no circuit breakers are shared here; window " + window.id()
                        + " cannot hold the one of " + window.dependency());
            }
            windows.add(window);
            return window;
        }
        holds.put(window, clock.instant());
        return window;
    }

    @Override
    public void checkNewWindow(MaintenanceWindow window) {
        requireDependency(window.dependency());
        if (windows.find(window.id()).isPresent()) {
            throw new IllegalArgumentException("a window with id '" + window.id() + "' exists already");
        }
        if (window.holdsBreaker() && !clock.instant().isBefore(window.end())) {
            throw new IllegalArgumentException("a window holds its breaker while it lasts, and this one is over (it "
                    + "ended " + window.end() + ")");
        }
    }

    @Override
    public String requireDependency(String dependency) {
        Set<String> known = new TreeSet<>(holds == null ? List.of() : holds.dependencies());
        windows.list().stream().map(MaintenanceWindow::dependency).forEach(known::add);
        if (known.contains(dependency)) {
            return dependency;
        }
        for (QuarantineRecord r : queries.list(new QuarantineQuery(
                Optional.empty(),
                EnumSet.allOf(QuarantineState.class),
                Set.of(),
                Optional.empty(),
                Optional.empty(),
                Integer.MAX_VALUE))) {
            if (r.classification().dependency() != null) {
                known.add(r.classification().dependency());
            }
        }
        if (!known.contains(dependency)) {
            throw new IllegalArgumentException(UnknownName.message(
                    "dependency",
                    dependency,
                    known,
                    "the shared circuit breakers, the maintenance windows, the dead letters' failures"));
        }
        return dependency;
    }

    @Override
    public List<MaintenanceWindow> windows() {
        return windows.list();
    }

    @Override
    public Optional<MaintenanceWindow> window(String id) {
        return windows.find(id);
    }

    @Override
    public boolean removeWindow(String id) {
        return holds == null ? windows.remove(id) : holds.remove(id, clock.instant());
    }

    @Override
    public BreakerState holdBreakerOpen(String id) {
        MaintenanceWindow w = windows.find(id)
                .orElseThrow(() -> new IllegalArgumentException("no maintenance window with id '" + id + "'"));
        if (holds == null) {
            throw new IllegalArgumentException(
                    "no circuit breakers are shared here; window " + id + " cannot hold one open");
        }
        return holds.hold(w, clock.instant());
    }

    @Override
    public List<String> releaseBreaker(String dependency, Actor person) {
        requirePerson(person);
        return requireHolds(dependency).release(dependency, clock.instant(), person.name());
    }

    @Override
    public BreakerState probeBreaker(String dependency, Actor person) {
        requirePerson(person);
        return requireHolds(dependency).probe(dependency, clock.instant(), person.name());
    }

    private BreakerHolds requireHolds(String dependency) {
        if (holds == null) {
            throw new IllegalArgumentException("no circuit breakers are shared here, none of " + dependency);
        }
        return holds;
    }

    /** The state an archive decision found (it reads the record itself); empty when there was none, or it changed. */
    private static Optional<QuarantineState> stateBefore(ArchiveDecision.Outcome outcome) {
        if (outcome instanceof ArchiveDecision.Archived a) {
            return Optional.of(a.from());
        }
        if (outcome instanceof ArchiveDecision.Refused r) {
            return Optional.of(r.state());
        }
        return Optional.empty();
    }

    private static FailureClass classOf(ReplayService.Attempt attempt) {
        return attempt.before().orElseThrow().classification().failureClass();
    }

    private static void requirePerson(Actor person) {
        Objects.requireNonNull(person, "person");
        if (person.automated()) {
            throw new IllegalArgumentException("operator decisions are a person's; the automation has its own path");
        }
    }

    private static <T> T require(T value, String what) {
        if (value == null) {
            throw new IllegalStateException("an operator needs " + what);
        }
        return value;
    }

    /** Builds a {@link LedgerOperator}. */
    public static final class Builder {
        private QuarantineLedger ledger;
        private ReplayService replays;
        private MaintenanceWindows windows;
        private ReplayStats stats;
        private DeadLetterSource queues;
        private PayloadStore payloads;
        private Clock clock = Clock.systemUTC();
        private BreakerStore breakers;
        private List<String> dependencies = List.of();
        private ClaimStore claims;
        private List<String> sourceQueues = List.of();

        private Builder() {}

        /**
         * The routes' source queues (names): a listing of resolved dead letters (REPLAYED, ARCHIVED) without a queue
         * reads each one's records moved to the store too, whose tombstones leave the ledger's by-state reads. None by
         * default: such a listing then shows only the resolved records still in the ledger.
         */
        public Builder sourceQueues(Collection<String> sourceQueues) {
            this.sourceQueues = List.copyOf(sourceQueues);
            return this;
        }

        /** The claim store the consumers claim in, for {@link #claim}; without it, {@code claim} throws. */
        public Builder claims(ClaimStore claims) {
            this.claims = Objects.requireNonNull(claims, "claims");
            return this;
        }

        /**
         * Where the consumers' circuit breakers are shared, and whose to show; none by default. The maintenance windows
         * are kept with them (their holds are written together with the windows).
         */
        public Builder breakers(BreakerStore store, List<String> dependencies) {
            this.breakers = Objects.requireNonNull(store, "store");
            this.dependencies = List.copyOf(dependencies);
            return this;
        }

        public Builder ledger(QuarantineLedger ledger) {
            this.ledger = ledger;
            return this;
        }

        public Builder replays(ReplayService replays) {
            this.replays = replays;
            return this;
        }

        public Builder windows(MaintenanceWindows windows) {
            this.windows = windows;
            return this;
        }

        /** Where sent replays are counted: the same statistics the sweeper counts in. */
        public Builder stats(ReplayStats stats) {
            this.stats = stats;
            return this;
        }

        /** Reads the queues' depths for {@link #status}. */
        public Builder queues(DeadLetterSource queues) {
            this.queues = queues;
            return this;
        }

        /** Where payloads too large for the ledger are kept, for {@link #payload}. */
        public Builder payloads(PayloadStore payloads) {
            this.payloads = payloads;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public LedgerOperator build() {
            return new LedgerOperator(this);
        }
    }
}
