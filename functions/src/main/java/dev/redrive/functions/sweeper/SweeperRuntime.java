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
import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.replay.ClaimLookupIdempotencyGate;
import dev.redrive.core.replay.PayloadStore;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.ArchiveSweep;
import dev.redrive.core.sweeper.AutoReplaySweep;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.ReplayStats;
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

/**
 * Wires the sweeper's core to the AWS adapters, once per container, from the typed configuration. The handler gets
 * what it uses, each through its port: the routes, the sweeper, the ledger (counts by state), the dead-letter source
 * (depths) and the replay statistics.
 */
@ApplicationScoped
public class SweeperRuntime {

    /** The routes the sweeper looks after, parsed once at start ({@code redrive.sweeper.routes}). */
    public record SweptRoutes(List<Route> all) {
        public SweptRoutes {
            all = List.copyOf(all);
        }
    }

    /** The consumers deployed in this artifact, by name: the sweeper reads keys with their own parsers. */
    public record DeployedConsumers(Map<String, IdempotentConsumer<?>> byName) {}

    @Produces
    @Singleton
    DeployedConsumers deployedConsumers(ConfirmationEmailConsumer email, RevenueAnalyticsConsumer revenue) {
        return new DeployedConsumers(Map.of(email.name(), email, revenue.name(), revenue));
    }

    @Produces
    @Singleton
    SweptRoutes sweptRoutes(RedriveConfig config, ObjectMapper json, QueueDirectory directory) {
        return new SweptRoutes(SweeperRoutes.parse(config.sweeper().routes(), json, directory));
    }

    @Produces
    @Singleton
    QuarantineLedger quarantineLedger(RedriveConfig config, DynamoDbClient dynamoDb, Clock clock) {
        return new DynamoDbQuarantineLedger(
                dynamoDb, config.sweeper().quarantineTable(), config.sweeper().controlTable(), clock);
    }

    @Produces
    @Singleton
    ReplayStats replayStats(RedriveConfig config, DynamoDbClient dynamoDb) {
        return new DynamoDbReplayStats(dynamoDb, config.sweeper().controlTable());
    }

    @Produces
    @Singleton
    DeadLetterSource deadLetterSource(RedriveConfig config, SqsClient sqs, QueueDirectory directory) {
        return new SqsDeadLetterSource(sqs, directory, config.sweeper().receiveVisibilitySeconds());
    }

    @Produces
    @Singleton
    PayloadStore payloadStore(RedriveConfig config, S3Client s3) {
        RedriveConfig.Sweeper c = config.sweeper();
        return new S3PayloadStore(s3, c.archiveBucket(), c.archiveKmsKeyId().orElse(null));
    }

    @Produces
    @Singleton
    ReplayService replayService(
            RedriveConfig config,
            QuarantineLedger ledger,
            SqsClient sqs,
            QueueDirectory directory,
            ObjectMapper json,
            EventSchemas schemas,
            DynamoDbClaimStore claims,
            DeployedConsumers consumers,
            PayloadStore payloads,
            Clock clock) {
        return new ReplayService(
                ledger,
                new CheckoutSchemaGate(json, schemas, CheckoutSchemaGate.upcasters()),
                new ClaimLookupIdempotencyGate(
                        consumers.byName(),
                        claims,
                        ClaimTtlCheck.retention(config)
                                .claimHorizonAfterArrival(config.claims().recordTtl())),
                new SqsReplaySender(sqs, directory),
                payloads,
                clock);
    }

    @Produces
    @Singleton
    Sweeper sweeper(
            RedriveConfig config,
            DynamoDbClient dynamoDb,
            S3Client s3,
            QuarantineLedger ledger,
            DeadLetterSource deadLetters,
            ReplayStats stats,
            PayloadStore payloads,
            DynamoDbClaimStore claims,
            DeployedConsumers consumers,
            ReplayService replays,
            Clock clock) {
        RedriveConfig.Sweeper c = config.sweeper();
        SweeperSettings settings =
                new SweeperSettings(c.retention(), c.maxArrivalsPerRun(), c.inlineBodyLimit(), c.archiveBatch());
        LeaseStore leases = new DynamoDbLeaseStore(dynamoDb, c.controlTable());
        return new Sweeper(
                deadLetters,
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
    }
}
