package dev.redrive.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.AwsRedrive;
import dev.redrive.aws.queues.QueueAddress;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.checkout.CheckoutDeployment;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.Route;
import java.util.List;
import java.util.Optional;

/**
 * The backend on AWS: the operator port over the same adapters the sweeper function uses ({@link AwsRedrive}), with
 * the checkout's consumers and schema gate ({@link CheckoutDeployment}); built on first use so that {@code redrive
 * backoff} never needs AWS at all.
 */
final class AwsBackend implements Backend {

    /** The CLI never receives from a dead-letter queue; it only reads depths. */
    private static final int NO_RECEIVES = 30;

    private final CliContext context;
    private final Settings settings;
    private final AwsClients aws;
    private final ObjectMapper json = new ObjectMapper();
    private final CheckoutDeployment checkout;
    private QueueDirectory queues;
    private List<Route> routes;
    private OperatorPort operator;

    AwsBackend(CliContext context, Settings settings) {
        this.context = context;
        this.settings = settings;
        this.aws = new AwsClients(context);
        this.checkout = CheckoutDeployment.forReplayChecks(json, settings.revenueTable());
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
    public EventSchemas schemas() {
        return checkout.schemas();
    }

    /** Queue URLs by name; the configured routes' URLs are registered so they are never looked up. */
    @Override
    public synchronized QueueDirectory directory() {
        if (routes == null) {
            routes = Routes.parse(settings.routes(), json, queues());
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
            ReplayService replays = redrive.replays(checkout.consumers(), checkout.schemaGate())
                    .sender(context.senderWrapper().apply(redrive.sender()))
                    .pace(settings.replayPace())
                    .build();
            operator = redrive.operator(replays).build();
        }
        return operator;
    }

    @Override
    public void close() {
        aws.close();
    }
}
