package dev.redrive.cli;

import dev.redrive.aws.AwsRedrive;
import dev.redrive.aws.queues.QueueAddress;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SweeperRoutes;
import dev.redrive.aws.routes.S3RoutesStore;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.Route;
import dev.redrive.schema.ContractReader;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.schema.SchemaRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The backend on AWS: the operator port over the same adapters the sweeper function uses ({@link AwsRedrive}), with
 * the key readers and schema gate of the routes document the sweeper reads ({@link RoutesDocument}: no consumer code);
 * built on first use so that {@code redrive backoff} never needs AWS at all.
 */
final class AwsBackend implements Backend {

    /** The CLI never receives from a dead-letter queue; it only reads depths. */
    private static final int NO_RECEIVES = 30;

    private final CliContext context;
    private final Settings settings;
    private final AwsClients aws;
    private RoutesDocument document;
    private QueueDirectory queues;
    private List<Route> routes;
    private OperatorPort operator;

    AwsBackend(CliContext context, Settings settings) {
        this.context = context;
        this.settings = settings;
        this.aws = new AwsClients(context);
    }

    @Override
    public AwsClients aws() {
        return aws;
    }

    @Override
    public Settings settings() {
        return settings;
    }

    @Override
    public SchemaRegistry schemas() {
        return routesDocument().schemas();
    }

    @Override
    public synchronized RoutesDocument routesDocument() {
        if (document == null) {
            document = Routes.load(settings.routes(), (bucket, key) -> new S3RoutesStore(aws.s3()).read(bucket, key));
        }
        return document;
    }

    /** Queue URLs by name; the configured routes' URLs are registered so they are never looked up. */
    @Override
    public synchronized QueueDirectory directory() {
        if (routes == null) {
            routes = SweeperRoutes.of(routesDocument(), queues());
        }
        return queues;
    }

    @Override
    public synchronized List<Route> routes() {
        directory();
        return routes;
    }

    /** The directory without the routes read: listing, showing and archiving need no routes configured. */
    private synchronized QueueDirectory queues() {
        if (queues == null) {
            queues = new QueueDirectory(aws.sqs(), Optional.empty());
        }
        return queues;
    }

    @Override
    public Route routeOf(String name) {
        for (Route r : routes()) {
            if (r.sourceQueue().equals(name)) {
                return r;
            }
        }
        return new Route("-", name, QueueAddress.nameOf(directory().deadLetterUrl(name)));
    }

    /** The operator port, replaying through the context's sender wrapper (identity outside tests). */
    @Override
    public synchronized OperatorPort operator() {
        if (operator == null) {
            AwsRedrive redrive = new AwsRedrive(
                    aws.dynamoDb(),
                    aws.sqs(),
                    aws.s3(),
                    queues(),
                    new AwsRedrive.Names(
                            settings.claimsTable(),
                            settings.quarantineTable(),
                            settings.controlTable(),
                            settings.archiveBucket(),
                            settings.archiveKmsKeyId(),
                            settings.claimChecks()),
                    NO_RECEIVES,
                    context.clock());
            RoutesDocument declared = routesDocument();
            Map<String, ContractReader> readers = declared.readers();
            ReplayService replays = redrive.replays(declared.keyReaders(readers), declared.schemaGate(readers))
                    .sender(context.senderWrapper().apply(redrive.sender()))
                    .pace(settings.replayPace())
                    .build();
            operator = redrive.operator(replays, declared).build();
        }
        return operator;
    }

    @Override
    public void close() {
        aws.close();
    }
}
