package dev.redrive.functions.sweeper;

import dev.redrive.aws.AwsRedrive;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SweeperRoutes;
import dev.redrive.aws.routes.S3RoutesStore;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.replay.SchemaGate;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.core.sweeper.SweeperSettings;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.schema.ContractReader;
import dev.redrive.schema.RoutesDocument;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Wires the sweeper's core to the AWS adapters, once per container, from the typed configuration: the adapters from
 * {@link AwsRedrive}, the key readers and schema gate from the routes document ({@code REDRIVE_ROUTES}: an
 * {@code s3://} object read at each cold start, a file or the JSON; else the old queues-only
 * {@code REDRIVE_SWEEPER_ROUTES}, whose replays are refused), no consumer code, the services from core's builders
 * (the same graph the CLI and the local run build). The handler gets what it uses, each through its port: the routes,
 * the sweeper, the ledger (counts by state), the dead-letter source (depths) and the replay statistics.
 */
@ApplicationScoped
public class SweeperRuntime {

    /** The routes the sweeper looks after, parsed once at start ({@code redrive.sweeper.routes}). */
    public record SweptRoutes(List<Route> all) {
        public SweptRoutes {
            all = List.copyOf(all);
        }
    }

    @Produces
    @Singleton
    AwsRedrive awsRedrive(
            RedriveConfig config,
            DynamoDbClient dynamoDb,
            SqsClient sqs,
            S3Client s3,
            QueueDirectory directory,
            ClaimCheckSettings claimChecks,
            Clock clock) {
        RedriveConfig.Sweeper c = config.sweeper();
        return new AwsRedrive(
                dynamoDb,
                sqs,
                s3,
                directory,
                new AwsRedrive.Names(
                        config.claims().table(),
                        c.quarantineTable(),
                        c.controlTable(),
                        c.archiveBucket(),
                        c.archiveKmsKeyId(),
                        claimChecks),
                c.receiveVisibilitySeconds(),
                clock);
    }

    /** The replay checks every declared route gets: its key reader (claim lookups) and the schema gate. */
    public record DeclaredChecks(Map<String, KeyReader> keys, SchemaGate schemas) {}

    @Produces
    @Singleton
    RoutesDocument routesDocument(RedriveConfig config, S3Client s3) {
        Optional<String> spec = config.routes();
        return spec.isPresent() && !spec.get().isBlank()
                ? RoutesDocument.load(spec.get(), new S3RoutesStore(s3))
                : RoutesDocument.parseLegacy(config.sweeper().routes());
    }

    @Produces
    @Singleton
    DeclaredChecks declaredChecks(RoutesDocument routes) {
        Map<String, ContractReader> readers = routes.readers();
        return new DeclaredChecks(routes.keyReaders(readers), routes.schemaGate(readers));
    }

    @Produces
    @Singleton
    SweptRoutes sweptRoutes(RoutesDocument routes, QueueDirectory directory) {
        return new SweptRoutes(SweeperRoutes.of(routes, directory));
    }

    @Produces
    @Singleton
    QuarantineLedger quarantineLedger(AwsRedrive aws) {
        return aws.ledger();
    }

    @Produces
    @Singleton
    ReplayStats replayStats(AwsRedrive aws) {
        return aws.stats();
    }

    @Produces
    @Singleton
    MaintenanceWindows maintenanceWindows(AwsRedrive aws) {
        return aws.windows();
    }

    @Produces
    @Singleton
    BreakerHolds breakerHolds(AwsRedrive aws, RoutesDocument routes) {
        return aws.breakerHolds(routes.breakers());
    }

    @Produces
    @Singleton
    DeadLetterSource deadLetterSource(AwsRedrive aws) {
        return aws.deadLetters();
    }

    @Produces
    @Singleton
    ReplayService replayService(RedriveConfig config, RedriveSettings settings, AwsRedrive aws, DeclaredChecks checks) {
        Duration claimHorizon = settings.claims()
                .retention()
                .claimHorizonAfterArrival(settings.claims().recordTtl());
        RedriveConfig.Replays r = config.replays();
        return aws.replays(checks.keys(), checks.schemas())
                .claimLookup(checks.keys(), aws.claims(), claimHorizon)
                .pace(ReplayPace.of(r.ratePerSecond(), r.laneRates().orElse(""), r.horizon()))
                .build();
    }

    @Produces
    @Singleton
    Sweeper sweeper(RedriveConfig config, AwsRedrive aws, DeclaredChecks checks, ReplayService replays) {
        RedriveConfig.Sweeper c = config.sweeper();
        return aws.sweeper(checks.keys(), replays)
                .settings(new SweeperSettings(
                        c.retention(),
                        c.maxArrivalsPerRun(),
                        c.inlineBodyLimit(),
                        c.archiveBatch(),
                        c.archiveObjectChars()))
                .replayBatch(c.archiveBatch())
                .build();
    }
}
