package dev.redrive.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.archive.S3PayloadStore;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.ledger.DynamoDbReplayStats;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsDeadLetterSource;
import dev.redrive.aws.queues.SqsReplaySender;
import dev.redrive.checkout.CheckoutSchemaGate;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlacedReader;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.replay.ClaimLookupIdempotencyGate;
import dev.redrive.core.replay.PayloadStore;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.Route;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The core services and AWS adapters of one CLI run, wired the way the sweeper function wires them (same ledger,
 * same schema gate with the same upcasters, same idempotency lookup through the consumers' own parsers), built on
 * first use so that {@code redrive backoff} never needs AWS at all.
 */
final class Backend implements AutoCloseable {

    private final CliContext context;
    private final Settings settings;
    private final AwsClients aws;
    private final ObjectMapper json = new ObjectMapper();
    private final EventSchemas schemas = new EventSchemas();
    private QuarantineLedger ledger;
    private QueueDirectory directory;
    private List<Route> routes;

    Backend(CliContext context, Settings settings) {
        this.context = context;
        this.settings = settings;
        this.aws = new AwsClients(context);
    }

    AwsClients aws() {
        return aws;
    }

    Settings settings() {
        return settings;
    }

    EventSchemas schemas() {
        return schemas;
    }

    synchronized QuarantineLedger ledger() {
        if (ledger == null) {
            ledger = new DynamoDbQuarantineLedger(
                    aws.dynamoDb(), settings.quarantineTable(), settings.controlTable(), context.clock());
        }
        return ledger;
    }

    /** The queues' depths, read the way the sweeper reads them. */
    DeadLetterSource queues() {
        return new SqsDeadLetterSource(aws.sqs(), directory(), 30);
    }

    DynamoDbMaintenanceWindows windows() {
        return new DynamoDbMaintenanceWindows(aws.dynamoDb(), settings.controlTable());
    }

    DynamoDbReplayStats replayStats() {
        return new DynamoDbReplayStats(aws.dynamoDb(), settings.controlTable());
    }

    /** Queue URLs by name; the configured routes' URLs are registered so they are never looked up. */
    synchronized QueueDirectory directory() {
        if (directory == null) {
            directory = new QueueDirectory(aws.sqs(), Optional.empty());
            routes = Routes.parse(settings.routes(), json, directory);
        }
        return directory;
    }

    /** The routes of {@code REDRIVE_SWEEPER_ROUTES} (or {@code --routes}). */
    synchronized List<Route> routes() {
        directory();
        return routes;
    }

    ArchiveDecision archiveDecision() {
        return new ArchiveDecision(ledger(), context.clock());
    }

    PayloadStore payloads() {
        return new S3PayloadStore(
                aws.s3(), settings.archiveBucket(), settings.archiveKmsKeyId().orElse(null));
    }

    /** The replay service with the sweeper's own checks; the sender goes through the context's wrapper. */
    ReplayService replayService() {
        OrderPlacedReader reader = new OrderPlacedReader(json, schemas);
        ConfirmationEmailConsumer email = new ConfirmationEmailConsumer(reader, mail -> {
            throw new IllegalStateException("the CLI reads idempotency keys only; it never sends email");
        });
        RevenueAnalyticsConsumer revenue = new RevenueAnalyticsConsumer(reader, settings.revenueTable());
        Map<String, IdempotentConsumer<?>> consumers = Map.of(email.name(), email, revenue.name(), revenue);
        return new ReplayService(
                ledger(),
                new CheckoutSchemaGate(json, schemas, CheckoutSchemaGate.upcasters()),
                new ClaimLookupIdempotencyGate(
                        consumers, new DynamoDbClaimStore(aws.dynamoDb(), settings.claimsTable())),
                context.senderWrapper().apply(new SqsReplaySender(aws.sqs(), directory())),
                payloads(),
                context.clock());
    }

    @Override
    public void close() {
        aws.close();
    }
}
