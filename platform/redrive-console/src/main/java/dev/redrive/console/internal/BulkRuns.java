package dev.redrive.console.internal;

import dev.redrive.console.internal.RunJournal.Guarded;
import dev.redrive.console.internal.RunJournal.Kind;
import dev.redrive.console.internal.RunJournal.Line;
import dev.redrive.console.internal.RunJournal.Phase;
import dev.redrive.console.internal.RunJournal.Run;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.operator.ReplayClassGuard;
import dev.redrive.core.operator.RunListener;
import dev.redrive.core.operator.RunResult;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.ConflictResponse;
import io.javalin.http.NotFoundResponse;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The console's bulk replays and archives: a dry run through the operator port ({@link OperatorPort#replayEach} or
 * {@link OperatorPort#archiveEach} with {@code dryRun}) that freezes the ids it reports into a run; the operator's
 * confirmation with a reason (and, for POISON or PERMANENT dead letters, an explicit allow: core's
 * {@link ReplayClassGuard}, the CLI's {@code --allow-class} rule); the execution of exactly those ids on a console-owned
 * executor, as the operator, paced as the port paces, stoppable between two dead letters; and, through the
 * {@link RunJournal}, resumption after the browser or the process went away. A resumed run does the frozen ids that have
 * no outcome yet; the ledger is the checkpoint (a REPLAYED dead letter is never sent again), so each is sent once.
 */
public final class BulkRuns implements AutoCloseable {

    /** At most this many refused dead letters are named in a refusal. */
    static final int NAMED = 10;

    private static final DateTimeFormatter ID_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final OperatorPort operator;
    private final Supplier<Actor> actor;
    private final Clock clock;
    private final RunJournal journal;
    private final ExecutorService executor;
    private final Map<String, Tracked> runs = new LinkedHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private volatile boolean closing;

    /**
     * Reads the journal's runs back; one the journal says was queued or running was interrupted by the end of the
     * process that ran it, and is marked so (resumable).
     */
    public BulkRuns(OperatorPort operator, Supplier<Actor> actor, Clock clock, RunJournal journal) {
        this.operator = operator;
        this.actor = actor;
        this.clock = clock;
        this.journal = journal;
        try {
            for (RunJournal.Stored stored : journal.load()) {
                Run run = stored.run();
                if (run.phase().active()) {
                    run = run.with(Phase.INTERRUPTED, "the console stopped while the run was under way", now());
                    journal.save(run);
                }
                runs.put(run.id(), new Tracked(run, stored.outcomes()));
            }
        } catch (RuntimeException e) {
            journal.close();
            throw e;
        }
        this.executor = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "redrive-console-bulk-runs");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Dry-runs {@code kind} over {@code ids} (changing nothing) and freezes them into a run that waits for confirmation.
     *
     * @param records the dead letters of {@code ids} that exist, for the guard of POISON and PERMANENT ones
     * @return the run's id
     */
    public String dryRun(
            Kind kind, String scope, String back, List<String> scopeIds, Collection<QuarantineRecord> records) {
        List<String> ids = List.copyOf(new LinkedHashSet<>(scopeIds));
        List<Line> lines = new ArrayList<>();
        RunResult result;
        List<Guarded> guarded = new ArrayList<>();
        if (kind == Kind.REPLAY) {
            new ReplayClassGuard(ReplayClassGuard.GUARDED)
                    .check(records)
                    .warned()
                    .forEach(f -> guarded.add(
                            new Guarded(f.quarantineId(), f.failureClass().name(), f.why())));
            result = operator.replayEach(ids, null, "dry run", true, replayListener(lines::add, () -> false));
        } else {
            result = operator.archiveEach(
                    ids, actor.get(), "dry run in the console", true, archiveListener(lines::add, () -> false));
        }
        if (result.failure().isPresent()) {
            throw result.failure().get().error();
        }
        String id =
                "run-" + ID_TIME.format(clock.instant()) + "-" + HexFormat.of().formatHex(randomBytes());
        Run run = new Run(
                id,
                kind,
                scope,
                back,
                now(),
                actor.get().name(),
                ids,
                lines,
                guarded,
                Phase.AWAITING_CONFIRMATION,
                "",
                "",
                "",
                List.of(),
                List.of(),
                "",
                now());
        journal.save(run);
        synchronized (runs) {
            runs.put(id, new Tracked(run, List.of()));
        }
        return id;
    }

    /**
     * Confirms a dry-run run: with {@code reason} (required) and the guarded classes the operator allows, it runs its
     * frozen ids in the background, as the console's actor.
     *
     * @throws BadRequestResponse when the reason is empty, a class name is not one, or a POISON or PERMANENT dead
     *     letter of the scope is not allowed (nothing runs)
     */
    public void confirm(String runId, String reason, List<String> allowedNames) {
        Tracked t = tracked(runId);
        String why = reason == null ? "" : reason.strip();
        Set<FailureClass> allowed = EnumSet.noneOf(FailureClass.class);
        for (String name : allowedNames) {
            try {
                allowed.add(FailureClass.valueOf(name.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new BadRequestResponse("allow takes " + ReplayClassGuard.GUARDED + ", not '" + name + "'");
            }
        }
        synchronized (t) {
            Run run = t.run;
            if (run.phase() != Phase.AWAITING_CONFIRMATION) {
                throw new ConflictResponse("run " + runId + " was confirmed already (it is " + run.phase() + ")");
            }
            if (why.isEmpty()) {
                throw new BadRequestResponse("a bulk " + run.kind().word() + " needs a reason: type why (it goes into "
                        + "the audit trail of each dead letter); nothing was " + past(run.kind()));
            }
            if (run.kind() == Kind.REPLAY) {
                refuseGuarded(run, allowed);
            }
            Actor person = actor.get();
            t.run = new Run(
                    run.id(),
                    run.kind(),
                    run.scope(),
                    run.back(),
                    run.createdAt(),
                    run.createdBy(),
                    run.ids(),
                    run.dryRun(),
                    run.guarded(),
                    Phase.QUEUED,
                    why,
                    person.name(),
                    now(),
                    List.copyOf(allowed),
                    run.resumes(),
                    "",
                    now());
            journal.save(t.run);
            submit(t, person);
        }
    }

    /** Asks a queued or running run to stop between two dead letters. */
    public void stop(String runId) {
        Tracked t = tracked(runId);
        synchronized (t) {
            if (!t.run.phase().active()) {
                throw new ConflictResponse("run " + runId + " is not running (it is " + t.run.phase() + ")");
            }
            t.stop = true;
        }
    }

    /**
     * Resumes a stopped, interrupted or failed run: its frozen ids that have no outcome yet run again, as the console's
     * actor (the ledger is the checkpoint: a dead letter replayed already is never sent again).
     */
    public void resume(String runId) {
        Tracked t = tracked(runId);
        synchronized (t) {
            Run run = t.run;
            if (!run.phase().resumable()) {
                throw new ConflictResponse(
                        "only a STOPPED, INTERRUPTED or FAILED run resumes; run " + runId + " is " + run.phase());
            }
            Actor person = actor.get();
            List<String> resumes = new ArrayList<>(run.resumes());
            resumes.add(person.name() + " at " + now());
            t.run = new Run(
                    run.id(),
                    run.kind(),
                    run.scope(),
                    run.back(),
                    run.createdAt(),
                    run.createdBy(),
                    run.ids(),
                    run.dryRun(),
                    run.guarded(),
                    Phase.QUEUED,
                    run.reason(),
                    run.confirmedBy(),
                    run.confirmedAt(),
                    run.allowed(),
                    resumes,
                    "",
                    now());
            t.stop = false;
            journal.save(t.run);
            submit(t, person);
        }
    }

    /** One run as it stands. */
    public Optional<Snapshot> find(String runId) {
        Tracked t;
        synchronized (runs) {
            t = runs.get(runId);
        }
        return Optional.ofNullable(t).map(r -> r.snapshot(closing));
    }

    /** Every run, newest first. */
    public List<Snapshot> all() {
        List<Tracked> all;
        synchronized (runs) {
            all = new ArrayList<>(runs.values());
        }
        List<Snapshot> snapshots = new ArrayList<>();
        for (int i = all.size() - 1; i >= 0; i--) {
            snapshots.add(all.get(i).snapshot(closing));
        }
        return snapshots;
    }

    /** The runs that can be resumed (stopped, interrupted, failed), newest first. */
    public List<Snapshot> unfinished() {
        return all().stream().filter(s -> s.run().phase().resumable()).toList();
    }

    /**
     * Stops every run between two dead letters (they are marked INTERRUPTED, resumable by a console started again) and
     * waits for the one in hand.
     */
    @Override
    public void close() {
        closing = true;
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                executor.shutdownNow();
                executor.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            journal.close();
        }
    }

    private void submit(Tracked t, Actor person) {
        executor.execute(() -> execute(t, person));
    }

    private void execute(Tracked t, Actor person) {
        Supplier<Boolean> stop = () -> closing || t.stopRequested();
        Phase end;
        String failure = "";
        try {
            Run run;
            List<String> remaining;
            synchronized (t) {
                t.run = t.run.with(Phase.RUNNING, "", now());
                run = t.run;
                remaining = t.remaining();
                journal.save(run);
            }
            java.util.function.Consumer<Line> record = line -> {
                journal.append(run.id(), line);
                t.add(line);
            };
            RunResult result = run.kind() == Kind.REPLAY
                    ? operator.replayEach(remaining, person, run.reason(), false, replayListener(record, stop))
                    : operator.archiveEach(remaining, person, run.reason(), false, archiveListener(record, stop));
            if (result.failure().isPresent()) {
                end = Phase.FAILED;
                failure = "stopped by an error on " + result.failure().get().quarantineId() + ": "
                        + oneLine(result.failure().get().error());
            } else if (result.stopped()) {
                end = closing ? Phase.INTERRUPTED : Phase.STOPPED;
                failure = closing ? "the console stopped while the run was under way" : "";
            } else {
                end = Phase.DONE;
            }
        } catch (RuntimeException e) {
            end = Phase.FAILED;
            failure = "stopped by an error: " + oneLine(e);
        }
        synchronized (t) {
            t.run = t.run.with(end, failure, now());
            journal.save(t.run); // fails only as the start's did: then the journal keeps it RUNNING, resumable
        }
    }

    private void refuseGuarded(Run run, Set<FailureClass> allowed) {
        if (run.guarded().isEmpty()) {
            return;
        }
        ReplayClassGuard guard;
        try {
            guard = new ReplayClassGuard(allowed);
        } catch (IllegalArgumentException e) {
            throw new BadRequestResponse(e.getMessage());
        }
        List<QuarantineRecord> records = new ArrayList<>();
        run.guarded().forEach(g -> operator.show(g.id()).ifPresent(records::add));
        ReplayClassGuard.Verdict verdict = guard.check(records);
        if (verdict.passes()) {
            return;
        }
        StringBuilder b = new StringBuilder("refused, nothing replayed: ")
                .append(verdict.refused().size())
                .append(" of the ")
                .append(run.ids().size())
                .append(" dead letter(s) failed as ")
                .append(String.join(
                        ",", verdict.refusedClasses().stream().map(Enum::name).toList()))
                .append(", and a replay fails the same way unless the cause was fixed:");
        verdict.refused().stream()
                .limit(NAMED)
                .forEach(f -> b.append("\n  ")
                        .append(f.quarantineId())
                        .append("  ")
                        .append(f.failureClass())
                        .append("  ")
                        .append(f.why()));
        if (verdict.refused().size() > NAMED) {
            b.append("\n  ... and ").append(verdict.refused().size() - NAMED).append(" more");
        }
        b.append("\nTo replay them anyway tick 'allow ")
                .append(String.join(
                        "' and 'allow ",
                        verdict.refusedClasses().stream().map(Enum::name).toList()))
                .append("', or leave them out: filter the group by class.");
        throw new BadRequestResponse(b.toString());
    }

    private static RunListener<ReplayOutcome> replayListener(
            java.util.function.Consumer<Line> record, Supplier<Boolean> stop) {
        return new RunListener<>() {
            @Override
            public boolean stopRequested() {
                return stop.get();
            }

            @Override
            public void done(String id, Optional<QuarantineState> before, ReplayOutcome outcome) {
                QuarantineState b = before.orElse(null);
                record.accept(new Line(id, BulkOutcome.of(outcome, b).name(), BulkOutcome.describe(outcome, b)));
            }
        };
    }

    private static RunListener<ArchiveDecision.Outcome> archiveListener(
            java.util.function.Consumer<Line> record, Supplier<Boolean> stop) {
        return new RunListener<>() {
            @Override
            public boolean stopRequested() {
                return stop.get();
            }

            @Override
            public void done(String id, Optional<QuarantineState> before, ArchiveDecision.Outcome outcome) {
                record.accept(new Line(id, BulkOutcome.of(outcome).name(), outcome.describe()));
            }
        };
    }

    private Tracked tracked(String runId) {
        synchronized (runs) {
            Tracked t = runs.get(runId);
            if (t == null) {
                throw new NotFoundResponse("no bulk run " + runId + " (the runs are listed at /bulk/runs)");
            }
            return t;
        }
    }

    private static String past(Kind kind) {
        return kind == Kind.REPLAY ? "replayed" : "archived";
    }

    private static String oneLine(RuntimeException e) {
        return e.getClass().getSimpleName() + ": "
                + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    }

    private String now() {
        return clock.instant().toString();
    }

    private byte[] randomBytes() {
        byte[] b = new byte[4];
        random.nextBytes(b);
        return b;
    }

    /**
     * A run as it stands: its record and its execution's outcomes so far.
     *
     * @param stopRequested whether the operator (or the console's closing) asked it to stop and it has not yet
     */
    public record Snapshot(Run run, List<Line> outcomes, boolean stopRequested) {

        /** How many frozen dead letters have an outcome. */
        public int done() {
            return outcomes.size();
        }

        /** How many frozen dead letters the run has. */
        public int total() {
            return run.ids().size();
        }

        /** The execution's counts by outcome (the dry run's when it has not been confirmed), in the tallies' order. */
        public Map<BulkOutcome, Integer> tallies() {
            return count(run.phase() == Phase.AWAITING_CONFIRMATION ? run.dryRun() : outcomes);
        }

        /** The dry run's counts by outcome. */
        public Map<BulkOutcome, Integer> dryRunTallies() {
            return count(run.dryRun());
        }

        private static Map<BulkOutcome, Integer> count(List<Line> lines) {
            Map<BulkOutcome, Integer> counts = new EnumMap<>(BulkOutcome.class);
            lines.forEach(l -> counts.merge(BulkOutcome.valueOf(l.outcome()), 1, Integer::sum));
            return counts;
        }
    }

    /** A run and what the console knows of its execution; guarded by its own monitor. */
    private static final class Tracked {
        private Run run;
        private final Map<String, Line> outcomes = new LinkedHashMap<>();
        private boolean stop;

        Tracked(Run run, List<Line> outcomes) {
            this.run = run;
            outcomes.forEach(l -> this.outcomes.putIfAbsent(l.id(), l));
        }

        synchronized void add(Line line) {
            outcomes.putIfAbsent(line.id(), line);
        }

        synchronized boolean stopRequested() {
            return stop;
        }

        /** The frozen ids that have no outcome yet, in order. */
        synchronized List<String> remaining() {
            return run.ids().stream().filter(id -> !outcomes.containsKey(id)).toList();
        }

        synchronized Snapshot snapshot(boolean closing) {
            return new Snapshot(
                    run,
                    List.copyOf(outcomes.values()),
                    (stop || closing) && run.phase().active());
        }
    }
}
