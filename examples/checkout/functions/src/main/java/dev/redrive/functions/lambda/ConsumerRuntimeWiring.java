package dev.redrive.functions.lambda;

import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsQueueGateway;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.RandomSource;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.EffectBreakers;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.functions.config.RedriveConfigSettings;
import dev.redrive.lambda.ConsumerEvents;
import dev.redrive.lambda.ConsumerMetrics;
import dev.redrive.lambda.ConsumerRuntime;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.lambda.RedriveSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The CDI producers of the consumer machinery, once per container: each delegates to {@code redrive-lambda}'s
 * {@link ConsumerRuntime}, from the {@link RedriveSettings} the typed configuration maps onto, so this application and
 * a plain-Java function build the same things the same way.
 */
@ApplicationScoped
public class ConsumerRuntimeWiring {

    @Produces
    @Singleton
    RedriveSettings settings(RedriveConfig config) {
        return RedriveConfigSettings.of(config);
    }

    @Produces
    @Singleton
    ConsumerMetrics consumerMetrics() {
        return new ConsumerMetrics(EmfOutput.stdout());
    }

    @Produces
    @Singleton
    ProcessingListener processingListener(ConsumerMetrics metrics) {
        return new ConsumerEvents(metrics);
    }

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    RandomSource randomSource(RedriveSettings settings) {
        return ConsumerRuntime.randomSource(settings.backoff());
    }

    @Produces
    @Singleton
    DynamoDbClaimStore claimStore(DynamoDbClient dynamoDb, RedriveSettings settings) {
        return ConsumerRuntime.claimStore(dynamoDb, settings);
    }

    @Produces
    @Singleton
    QueueDirectory queueDirectory(SqsClient sqs, RedriveSettings settings) {
        return ConsumerRuntime.queueDirectory(sqs, settings);
    }

    /** Where the claim checks are: the consumers and the sweeper read the same buckets. */
    @Produces
    @Singleton
    ClaimCheckSettings claimCheckSettings(RedriveSettings settings) {
        return settings.claimChecks().settings();
    }

    @Produces
    @Singleton
    SqsQueueGateway queueGateway(
            SqsClient sqs,
            QueueDirectory directory,
            ClaimCheckSettings claimChecks,
            S3Client s3,
            DynamoDbClient dynamoDb,
            RedriveSettings settings,
            Clock clock) {
        return ConsumerRuntime.queueGateway(sqs, directory, claimChecks, s3, dynamoDb, settings, clock);
    }

    @Produces
    @Singleton
    FullJitterBackoff backoff(RedriveSettings settings) {
        return settings.backoff().policy();
    }

    @Produces
    @Singleton
    LeasePolicy leasePolicy(RedriveSettings settings) {
        return settings.claims().leasePolicy();
    }

    @Produces
    @Singleton
    BatchProcessor batchProcessor(
            DynamoDbClaimStore claims,
            RandomSource random,
            Clock clock,
            SqsQueueGateway queues,
            ProcessingListener listener,
            EffectBreakers breakers,
            S3Client s3,
            RedriveSettings settings) {
        return ConsumerRuntime.batchProcessor(
                claims, random, clock, queues, listener, breakers, Optional.of(s3), settings);
    }
}
