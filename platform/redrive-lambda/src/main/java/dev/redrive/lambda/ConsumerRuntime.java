package dev.redrive.lambda;

import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.claims.DynamoDbDeadLetterNotes;
import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsQueueGateway;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.backoff.RandomSource;
import dev.redrive.core.backoff.SecureRandomSource;
import dev.redrive.core.breaker.BreakerListener;
import dev.redrive.core.breaker.CircuitBreaker;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.core.claim.ClaimStore;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.EffectBreakers;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.core.consumer.QueueGateway;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Wires the core's consumer machinery to the AWS adapters from {@link RedriveSettings}, once per sandbox. Each piece
 * is a plain factory, so a framework's wiring (the checkout example's CDI producers) and {@link Redrive}'s builder
 * build the same things the same way; nothing here is a global mutable singleton.
 */
public final class ConsumerRuntime {

    private ConsumerRuntime() {}

    /**
     * The jitter's random source: secure, or the reproducible mulberry32 generator when {@code REDRIVE_BACKOFF_SEED}
     * is set (tests, benchmarks, demos).
     */
    public static RandomSource randomSource(RedriveSettings.Backoff backoff) {
        return backoff.seed()
                .<RandomSource>map(seed -> {
                    Mulberry32 generator = new Mulberry32(seed);
                    return () -> {
                        synchronized (generator) {
                            return generator.nextDouble();
                        }
                    };
                })
                .orElseGet(SecureRandomSource::new);
    }

    public static DynamoDbClaimStore claimStore(DynamoDbClient dynamoDb, RedriveSettings settings) {
        return new DynamoDbClaimStore(dynamoDb, settings.claims().table());
    }

    public static QueueDirectory queueDirectory(SqsClient sqs, RedriveSettings settings) {
        return new QueueDirectory(sqs, settings.deadLetters().queueUrl());
    }

    /**
     * The queue gateway: a dead letter too large to go inline with its failure metadata goes by claim check; one with
     * no room for its metadata (SQS's ten attributes) keeps it in a note in the claims table, as long as claims count.
     */
    public static SqsQueueGateway queueGateway(
            SqsClient sqs,
            QueueDirectory directory,
            ClaimCheckSettings claimChecks,
            S3Client s3,
            DynamoDbClient dynamoDb,
            RedriveSettings settings,
            Clock clock) {
        return new SqsQueueGateway(
                sqs,
                directory,
                claimChecks.forCheckIn(s3),
                new SqsQueueGateway.Notes(
                        new DynamoDbDeadLetterNotes(dynamoDb, settings.claims().table()),
                        settings.claims().recordTtl(),
                        clock));
    }

    /**
     * The circuit breakers of {@code dependencyByConsumer} (a consumer's name to the dependency its effect calls): one
     * per sandbox, their state shared with every other sandbox through the breakers' table; a dependency whose breaker
     * is disabled is not guarded.
     */
    public static EffectBreakers effectBreakers(
            Map<String, String> dependencyByConsumer,
            DynamoDbClient dynamoDb,
            RedriveSettings settings,
            BreakerListener listener) {
        Map<String, CircuitBreaker> guarded = new HashMap<>();
        dependencyByConsumer.forEach((consumer, dependency) -> {
            RedriveSettings.Breaker breaker = settings.breakers().of(dependency);
            if (breaker.enabled()) {
                guarded.put(
                        consumer,
                        new CircuitBreaker(
                                dependency,
                                new DynamoDbBreakerStore(
                                        dynamoDb, settings.breakers().table()),
                                new CircuitBreakerRules(breaker.policy()),
                                breaker.cacheTtl(),
                                listener));
            }
        });
        return new EffectBreakers(guarded, settings.batch().maxReceiveCount());
    }

    /**
     * The batch processor: claims, leases, backoff, claim checks and the build version its failures record as
     * {@code settings} say. Lanes run on threads
     * started per batch, not a sandbox-wide pool: a hung effect holds only its own thread.
     */
    public static BatchProcessor batchProcessor(
            ClaimStore claims,
            RandomSource random,
            Clock clock,
            QueueGateway queues,
            ProcessingListener listener,
            EffectBreakers breakers,
            Optional<S3Client> s3,
            RedriveSettings settings) {
        MessageProcessor processor = new MessageProcessor(
                        claims,
                        settings.claims().leasePolicy(),
                        settings.backoff().policy(),
                        random,
                        clock,
                        listener,
                        breakers)
                .withBuildVersion(settings.build().version());
        if (s3.isPresent()) {
            processor = processor.withClaimChecks(
                    settings.claimChecks().settings().on(s3.get()),
                    settings.claimChecks().cleanup());
        }
        return new BatchProcessor(
                processor, queues, Math.max(1, settings.batch().concurrency()));
    }
}
