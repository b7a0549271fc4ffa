package dev.redrive.functions.sweeper;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.AwsRedrive;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SweeperRoutes;
import dev.redrive.checkout.CheckoutDeployment;
import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.core.sweeper.SweeperSettings;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.lambda.RedriveSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Wires the sweeper's core to the AWS adapters, once per container, from the typed configuration: the adapters from
 * {@link AwsRedrive}, the consumers and schema gate from {@link CheckoutDeployment}, the services from core's builders
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

    @Produces
    @Singleton
    SweptRoutes sweptRoutes(RedriveConfig config, ObjectMapper json, QueueDirectory directory) {
        return new SweptRoutes(SweeperRoutes.parse(config.sweeper().routes(), json, directory));
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
    BreakerHolds breakerHolds(AwsRedrive aws) {
        return aws.breakerHolds();
    }

    @Produces
    @Singleton
    DeadLetterSource deadLetterSource(AwsRedrive aws) {
        return aws.deadLetters();
    }

    @Produces
    @Singleton
    ReplayService replayService(
            RedriveConfig config, RedriveSettings settings, AwsRedrive aws, CheckoutDeployment checkout) {
        Duration claimHorizon = settings.claims()
                .retention()
                .claimHorizonAfterArrival(settings.claims().recordTtl());
        RedriveConfig.Replays r = config.replays();
        return aws.replays(checkout.consumers(), checkout.schemaGate())
                .claimLookup(checkout.consumers(), aws.claims(), claimHorizon)
                .pace(ReplayPace.of(r.ratePerSecond(), r.laneRates().orElse(""), r.horizon()))
                .build();
    }

    @Produces
    @Singleton
    Sweeper sweeper(RedriveConfig config, AwsRedrive aws, CheckoutDeployment checkout, ReplayService replays) {
        RedriveConfig.Sweeper c = config.sweeper();
        return aws.sweeper(checkout.consumers(), replays)
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
