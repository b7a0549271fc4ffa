package dev.redrive.sweeper;

import dev.redrive.aws.AwsRedrive;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SweeperRoutes;
import dev.redrive.aws.routes.S3RoutesStore;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.replay.SchemaGate;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.core.sweeper.SweeperSettings;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.schema.ContractReader;
import dev.redrive.schema.RoutesDocument;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Wires the sweeper's core to the AWS adapters from its settings: the adapters from {@link AwsRedrive}, the key
 * readers and the schema gate from the routes document (no consumer code), the services from core's builders. One
 * graph, built the same way by the plain handler ({@link DeadLetterSweeperHandler}) and by a framework's producers
 * (the checkout example's CDI), each step callable on its own.
 */
public final class SweeperWiring {

    private SweeperWiring() {}

    /** The replay checks every declared route gets: its key reader (claim lookups) and the schema gate. */
    public record DeclaredChecks(Map<String, KeyReader> keys, SchemaGate schemas) {}

    /** The adapters of Redrive's tables, queues and buckets. */
    public static AwsRedrive awsRedrive(
            SweeperFunctionSettings sweeper,
            RedriveSettings settings,
            DynamoDbClient dynamoDb,
            SqsClient sqs,
            S3Client s3,
            QueueDirectory directory,
            ClaimCheckSettings claimChecks,
            Clock clock) {
        return new AwsRedrive(
                dynamoDb,
                sqs,
                s3,
                directory,
                new AwsRedrive.Names(
                        settings.claims().table(),
                        sweeper.quarantineTable(),
                        sweeper.controlTable(),
                        sweeper.archiveBucket(),
                        sweeper.archiveKmsKeyId(),
                        claimChecks),
                sweeper.receiveVisibilitySeconds(),
                clock);
    }

    /**
     * The routes document: {@code REDRIVE_ROUTES} ({@code s3://} read at each cold start, a file or the JSON), else the
     * old queues-only {@code REDRIVE_SWEEPER_ROUTES}, whose replays are refused.
     */
    public static RoutesDocument routesDocument(SweeperFunctionSettings sweeper, S3Client s3) {
        Optional<String> spec = sweeper.routes();
        return spec.isPresent() && !spec.get().isBlank()
                ? RoutesDocument.load(spec.get(), new S3RoutesStore(s3))
                : RoutesDocument.parseLegacy(sweeper.legacyRoutes());
    }

    /** The key readers and the schema gate of every declared route. */
    public static DeclaredChecks declaredChecks(RoutesDocument routes) {
        Map<String, ContractReader> readers = routes.readers();
        return new DeclaredChecks(routes.keyReaders(readers), routes.schemaGate(readers));
    }

    /** The routes swept, their queues resolved to URLs. */
    public static List<Route> routes(RoutesDocument routes, QueueDirectory directory) {
        return SweeperRoutes.of(routes, directory);
    }

    /** Replays checked by schema and by claim, paced per lane. */
    public static ReplayService replayService(
            SweeperFunctionSettings sweeper, RedriveSettings settings, AwsRedrive aws, DeclaredChecks checks) {
        Duration claimHorizon = settings.claims()
                .retention()
                .claimHorizonAfterArrival(settings.claims().recordTtl());
        SweeperFunctionSettings.Replays r = sweeper.replays();
        return aws.replays(checks.keys(), checks.schemas())
                .claimLookup(checks.keys(), aws.claims(), claimHorizon)
                .pace(ReplayPace.of(r.ratePerSecond(), r.laneRates(), r.horizon()))
                .build();
    }

    /** The sweeper: quarantine, replay, archive. */
    public static Sweeper sweeper(
            SweeperFunctionSettings sweeper, AwsRedrive aws, DeclaredChecks checks, ReplayService replays) {
        return aws.sweeper(checks.keys(), replays)
                .ledger(new DynamoDbQuarantineLedger(
                        aws.dynamoDb(), aws.names().quarantineTable(), aws.clock(), sweeper.tombstoneTtl()))
                .settings(new SweeperSettings(
                        sweeper.retention(),
                        sweeper.maxArrivalsPerRun(),
                        sweeper.inlineBodyLimit(),
                        sweeper.archiveBatch(),
                        sweeper.archiveObjectChars()))
                .replayBatch(sweeper.archiveBatch())
                .build();
    }

    /** The whole graph, up to one {@link SweepRun}. */
    public static SweepRun sweepRun(
            SweeperFunctionSettings sweeper,
            RedriveSettings settings,
            DynamoDbClient dynamoDb,
            SqsClient sqs,
            S3Client s3,
            SweeperMetrics metrics,
            Clock clock) {
        QueueDirectory directory =
                new QueueDirectory(sqs, settings.deadLetters().queueUrl());
        AwsRedrive aws = awsRedrive(
                sweeper,
                settings,
                dynamoDb,
                sqs,
                s3,
                directory,
                settings.claimChecks().settings(),
                clock);
        RoutesDocument document = routesDocument(sweeper, s3);
        DeclaredChecks checks = declaredChecks(document);
        ReplayService replays = replayService(sweeper, settings, aws, checks);
        return new SweepRun(
                routes(document, directory),
                sweeper(sweeper, aws, checks, replays),
                aws.ledger(),
                aws.deadLetters(),
                aws.stats(),
                aws.breakerHolds(document.breakers()),
                sweeper.deadlineMargin(),
                metrics,
                clock);
    }
}
