package dev.redrive.quarkus.internal;

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
import dev.redrive.lambda.ConsumerEvents;
import dev.redrive.lambda.ConsumerMetrics;
import dev.redrive.lambda.ConsumerRuntime;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.quarkus.ConsumerGuard;
import dev.redrive.quarkus.RedriveConfig;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The CDI producers of the consumer machinery, once per sandbox: each delegates to {@code redrive-lambda}'s
 * {@link ConsumerRuntime}, from the {@link RedriveSettings} the typed configuration maps onto, so a Quarkus function
 * and a plain-Java one build the same things the same way. The clock, the random source, the metrics' output and the
 * breakers are default beans: an application (or its tests) may produce its own.
 */
@ApplicationScoped
public class ConsumerProducers {

    @Produces
    @Singleton
    RedriveSettings settings(RedriveConfig config) {
        return ConfigSettings.of(config);
    }

    @Produces
    @Singleton
    @DefaultBean
    ConsumerMetrics consumerMetrics() {
        return new ConsumerMetrics(EmfOutput.stdout());
    }

    @Produces
    @Singleton
    @DefaultBean
    ProcessingListener processingListener(ConsumerMetrics metrics) {
        return new ConsumerEvents(metrics);
    }

    @Produces
    @Singleton
    @DefaultBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    @DefaultBean
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

    /**
     * The circuit breakers the application's {@link ConsumerGuard}s declare: one per guarded consumer and sandbox, its
     * state shared with every other sandbox through the breakers' table.
     */
    @Produces
    @Singleton
    @DefaultBean
    EffectBreakers effectBreakers(
            Instance<ConsumerGuard> guards,
            DynamoDbClient dynamoDb,
            RedriveSettings settings,
            ConsumerMetrics metrics) {
        Map<String, String> dependencyByConsumer = new TreeMap<>();
        for (ConsumerGuard guard : guards) {
            String earlier = dependencyByConsumer.putIfAbsent(guard.consumer(), guard.dependency());
            if (earlier != null && !earlier.equals(guard.dependency())) {
                throw new IllegalStateException("consumer " + guard.consumer() + " is guarded twice, by " + earlier
                        + " and by " + guard.dependency() + ": an effect calls one guarded dependency");
            }
        }
        return ConsumerRuntime.effectBreakers(dependencyByConsumer, dynamoDb, settings, metrics.breakers());
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
