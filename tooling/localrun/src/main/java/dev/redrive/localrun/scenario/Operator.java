package dev.redrive.localrun.scenario;

import dev.redrive.aws.AwsRedrive;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SweeperRoutes;
import dev.redrive.aws.routes.S3RoutesStore;
import dev.redrive.core.breaker.BreakerWrite;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.operator.QuarantineQuery;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.core.replay.WindowChange;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.schema.ContractReader;
import dev.redrive.schema.RoutesDocument;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A person at the terminal, scripted: maintains maintenance windows, replays or archives what waits for a decision,
 * through core's operator port — wired like the CLI's and the sweeper's ({@link AwsRedrive}, {@link
 * RoutesDocument} the sweeper reads, core's builders), so with the same schema and idempotency checks, and counted in the same
 * replay statistics.
 */
public final class Operator {

    /** The operator never receives from a dead-letter queue; it only reads depths. */
    private static final int NO_RECEIVES = 30;

    private final Actor actor;
    private final OperatorPort port;

    /** The operator of the local system: its tables, bucket and routes, as the sweeper function is configured. */
    public Operator(LocalSystem system, Observer observer, Actor actor) {
        this(onAws(system, observer), routesOf(system), actor, system.replayPace());
    }

    /** The operator on {@code redrive}'s resources, checking replays by {@code routes}, at {@link ReplayPace#DEFAULT}. */
    public Operator(AwsRedrive redrive, RoutesDocument routes, Actor actor) {
        this(redrive, routes, actor, ReplayPace.DEFAULT);
    }

    /**
     * The operator on {@code redrive}'s resources, replaying at {@code pace} (the sweeper's, as the CLI does), with the
     * key readers and schema gate of {@code routes}: no consumer code, as the sweeper and the CLI.
     */
    public Operator(AwsRedrive redrive, RoutesDocument routes, Actor actor, ReplayPace pace) {
        this.actor = actor;
        Map<String, ContractReader> readers = routes.readers();
        this.port = redrive.operator(
                        redrive.replays(routes.keyReaders(readers), routes.schemaGate(readers))
                                .pace(pace)
                                .build(),
                        routes)
                .build();
    }

    /** The routes document the local sweeper function reads ({@code REDRIVE_ROUTES}, else the old variable). */
    static RoutesDocument routesOf(LocalSystem system) {
        Map<String, String> sweeper = system.environmentOf(LocalSystem.SWEEPER);
        String spec = sweeper.get(RoutesDocument.VARIABLE);
        return spec != null && !spec.isBlank()
                ? RoutesDocument.load(spec, new S3RoutesStore(system.aws().s3()))
                : RoutesDocument.parseLegacy(sweeper.getOrDefault("REDRIVE_SWEEPER_ROUTES", "[]"));
    }

    /** The local system's resources, the routes' URLs registered from the sweeper's own configuration. */
    private static AwsRedrive onAws(LocalSystem system, Observer observer) {
        var aws = system.aws();
        QueueDirectory directory = new QueueDirectory(aws.sqs(), Optional.empty());
        Map<String, String> sweeper = system.environmentOf(LocalSystem.SWEEPER);
        SweeperRoutes.of(routesOf(system), directory);
        return new AwsRedrive(
                aws.dynamoDb(),
                aws.sqs(),
                aws.s3(),
                directory,
                new AwsRedrive.Names(
                        observer.claimsTable(),
                        observer.quarantineTable(),
                        observer.controlTable(),
                        observer.archiveBucket(),
                        Optional.empty(),
                        new ClaimCheckSettings(
                                Optional.ofNullable(sweeper.get(ClaimCheckSettings.BUCKET_VARIABLE)),
                                List.of(),
                                Optional.empty())),
                NO_RECEIVES,
                Clock.systemUTC());
    }

    /** Maintenance windows, through the operator port. */
    public MaintenanceWindows windows() {
        return new MaintenanceWindows() {
            @Override
            public void add(MaintenanceWindow window) {
                port.addWindow(window);
            }

            @Override
            public boolean remove(String id) {
                return port.removeWindow(id);
            }

            @Override
            public List<MaintenanceWindow> list() {
                return port.windows();
            }

            @Override
            public Optional<MaintenanceWindow> find(String id) {
                return port.window(id);
            }

            @Override
            public boolean change(WindowChange change, List<BreakerWrite> breakers) {
                throw new UnsupportedOperationException("a person changes windows with add and remove: the operator "
                        + "port writes their breakers' holds with them");
            }
        };
    }

    public Actor actor() {
        return actor;
    }

    /** A person's approval to replay {@code record}; the port counts it in the replay statistics when sent. */
    public ReplayOutcome replay(QuarantineRecord record, String why) {
        return port.approveReplay(List.of(record.id()), actor, why, false).get(record.id());
    }

    /** What waits for a decision (every unresolved record), oldest first, up to {@code limit}. */
    public List<QuarantineRecord> waiting(int limit) {
        return port.list(QuarantineQuery.waiting(limit));
    }

    /** A bulk replay, as {@code redrive replay} runs one: these records, through the same checks as the sweeper. */
    public Map<String, ReplayOutcome> replayAll(List<String> ids, String why) {
        return port.approveReplay(ids, actor, why, false);
    }

    /** A person's decision to archive these dead letters, with a note; how many were archived. */
    public long archiveAll(List<String> ids, String note) {
        return port.archive(ids, actor, note, false).values().stream()
                .filter(o -> o instanceof ArchiveDecision.Archived)
                .count();
    }

    /** A person's decision to archive a dead letter that waits, with a note. */
    public boolean archive(QuarantineRecord record, String note) {
        return port.archive(List.of(record.id()), actor, note, false).get(record.id())
                instanceof ArchiveDecision.Archived;
    }
}
