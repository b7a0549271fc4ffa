package dev.redrive.functions.sweeper;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.archive.S3ArchiveStore;
import dev.redrive.aws.archive.S3PayloadStore;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.ledger.DynamoDbLeaseStore;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.ledger.DynamoDbReplayStats;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsDeadLetterSource;
import dev.redrive.aws.queues.SqsReplaySender;
import dev.redrive.aws.queues.SweeperRoutes;
import dev.redrive.checkout.CheckoutSchemaGate;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.replay.ClaimLookupIdempotencyGate;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.ArchiveSweep;
import dev.redrive.core.sweeper.AutoReplaySweep;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.core.sweeper.SweeperSettings;
import dev.redrive.functions.config.ClaimTtlCheck;
import dev.redrive.functions.config.RedriveConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/** Wires the sweeper's core to the AWS adapters, once per container, from the typed configuration. */
@ApplicationScoped
public class SweeperRuntime {

    /** The sweeper's view of one run's configuration: what it sweeps and the sweeper that does it. */
    public record Sweeping(
            List<Route> routes,
            Sweeper sweeper,
            DynamoDbReplayStats stats,
            DynamoDbQuarantineLedger ledger,
            QueueDirectory queues,
            SqsClient sqs) {}

    /** The consumers deployed in this artifact, by name: the sweeper reads keys with their own parsers. */
    public record DeployedConsumers(Map<String, IdempotentConsumer<?>> byName) {}

    @Produces
    @Singleton
    DeployedConsumers deployedConsumers(ConfirmationEmailConsumer email, RevenueAnalyticsConsumer revenue) {
        return new DeployedConsumers(Map.of(email.name(), email, revenue.name(), revenue));
    }

    @Produces
    @Singleton
    ReplayService replayService(
            RedriveConfig config,
            DynamoDbClient dynamoDb,
            SqsClient sqs,
            S3Client s3,
            QueueDirectory directory,
            ObjectMapper json,
            EventSchemas schemas,
            DynamoDbClaimStore claims,
            DeployedConsumers consumers,
            Clock clock) {
        RedriveConfig.Sweeper c = config.sweeper();
        return new ReplayService(
                ledger(config, dynamoDb, clock),
                new CheckoutSchemaGate(json, schemas, CheckoutSchemaGate.upcasters()),
                new ClaimLookupIdempotencyGate(
                        consumers.byName(),
                        claims,
                        ClaimTtlCheck.retention(config)
                                .claimHorizonAfterArrival(config.claims().recordTtl())),
                new SqsReplaySender(sqs, directory),
                new S3PayloadStore(s3, c.archiveBucket(), c.archiveKmsKeyId().orElse(null)),
                clock);
    }

    @Produces
    @Singleton
    Sweeping sweeping(
            RedriveConfig config,
            DynamoDbClient dynamoDb,
            SqsClient sqs,
            S3Client s3,
            QueueDirectory directory,
            ObjectMapper json,
            DynamoDbClaimStore claims,
            DeployedConsumers consumers,
            ReplayService replays,
            Clock clock) {
        RedriveConfig.Sweeper c = config.sweeper();
        List<Route> routes = SweeperRoutes.parse(c.routes(), json, directory);
        SweeperSettings settings =
                new SweeperSettings(c.retention(), c.maxArrivalsPerRun(), c.inlineBodyLimit(), c.archiveBatch());
        DynamoDbQuarantineLedger ledger = ledger(config, dynamoDb, clock);
        DynamoDbLeaseStore leases = new DynamoDbLeaseStore(dynamoDb, c.controlTable());
        DynamoDbReplayStats stats = new DynamoDbReplayStats(dynamoDb, c.controlTable());
        S3PayloadStore payloads =
                new S3PayloadStore(s3, c.archiveBucket(), c.archiveKmsKeyId().orElse(null));
        Sweeper sweeper = new Sweeper(
                new SqsDeadLetterSource(sqs, directory, c.receiveVisibilitySeconds()),
                ledger,
                leases,
                claims,
                consumers.byName(),
                payloads,
                new AutoReplaySweep(
                        ledger,
                        new DynamoDbMaintenanceWindows(dynamoDb, c.controlTable()),
                        replays,
                        stats,
                        leases,
                        clock,
                        c.archiveBatch()),
                new ArchiveSweep(
                        ledger,
                        new S3ArchiveStore(
                                s3, c.archiveBucket(), c.archiveKmsKeyId().orElse(null), clock),
                        payloads,
                        settings,
                        leases,
                        clock),
                stats,
                settings,
                clock);
        return new Sweeping(routes, sweeper, stats, ledger, directory, sqs);
    }

    private static DynamoDbQuarantineLedger ledger(RedriveConfig config, DynamoDbClient dynamoDb, Clock clock) {
        return new DynamoDbQuarantineLedger(
                dynamoDb, config.sweeper().quarantineTable(), config.sweeper().controlTable(), clock);
    }
}
