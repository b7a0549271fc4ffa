package dev.redrive.functions.sweeper;

import dev.redrive.aws.AwsRedrive;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.sweeper.SweepRun;
import dev.redrive.sweeper.SweeperFunctionSettings;
import dev.redrive.sweeper.SweeperMetrics;
import dev.redrive.sweeper.SweeperWiring;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The sweeper's CDI producers: each maps the typed configuration to {@code redrive-sweeper}'s settings and calls
 * {@link SweeperWiring}, the one graph the standalone sweeper function builds too (no rule lives here). The services
 * the CLI and the operators' commands share (ledger, windows, holds, replays) are produced from the same graph.
 */
@ApplicationScoped
public class SweeperRuntime {

    @Produces
    @Singleton
    SweeperFunctionSettings sweeperSettings(CheckoutConfig config) {
        CheckoutConfig.Sweeper c = config.sweeper();
        CheckoutConfig.Replays r = config.replays();
        return new SweeperFunctionSettings(
                config.routes(),
                c.routes(),
                c.quarantineTable(),
                c.controlTable(),
                c.archiveBucket(),
                c.archiveKmsKeyId(),
                c.retention(),
                c.maxArrivalsPerRun(),
                c.inlineBodyLimit(),
                c.archiveBatch(),
                c.archiveObjectChars(),
                c.deadlineMargin(),
                c.receiveVisibilitySeconds(),
                new SweeperFunctionSettings.Replays(
                        r.ratePerSecond(), r.laneRates().orElse(""), r.horizon()),
                c.tombstoneTtl());
    }

    @Produces
    @Singleton
    AwsRedrive awsRedrive(
            SweeperFunctionSettings sweeper,
            RedriveSettings settings,
            DynamoDbClient dynamoDb,
            SqsClient sqs,
            S3Client s3,
            QueueDirectory directory,
            ClaimCheckSettings claimChecks,
            Clock clock) {
        return SweeperWiring.awsRedrive(sweeper, settings, dynamoDb, sqs, s3, directory, claimChecks, clock);
    }

    @Produces
    @Singleton
    RoutesDocument routesDocument(SweeperFunctionSettings sweeper, S3Client s3) {
        return SweeperWiring.routesDocument(sweeper, s3);
    }

    @Produces
    @Singleton
    SweeperWiring.DeclaredChecks declaredChecks(RoutesDocument routes) {
        return SweeperWiring.declaredChecks(routes);
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
    ReplayService replayService(
            SweeperFunctionSettings sweeper,
            RedriveSettings settings,
            AwsRedrive aws,
            SweeperWiring.DeclaredChecks checks) {
        return SweeperWiring.replayService(sweeper, settings, aws, checks);
    }

    @Produces
    @Singleton
    Sweeper sweeper(
            SweeperFunctionSettings sweeper,
            AwsRedrive aws,
            SweeperWiring.DeclaredChecks checks,
            ReplayService replays) {
        return SweeperWiring.sweeper(sweeper, aws, checks, replays);
    }

    @Produces
    @Singleton
    SweepRun sweepRun(
            SweeperFunctionSettings settings,
            RoutesDocument routes,
            QueueDirectory directory,
            Sweeper sweeper,
            QuarantineLedger ledger,
            DeadLetterSource deadLetters,
            ReplayStats stats,
            BreakerHolds holds,
            Clock clock) {
        return new SweepRun(
                SweeperWiring.routes(routes, directory),
                sweeper,
                ledger,
                deadLetters,
                stats,
                holds,
                settings.deadlineMargin(),
                new SweeperMetrics(EmfOutput.stdout()),
                clock);
    }
}
