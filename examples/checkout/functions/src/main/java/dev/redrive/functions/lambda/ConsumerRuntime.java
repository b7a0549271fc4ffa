package dev.redrive.functions.lambda;

import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.claims.DynamoDbDeadLetterNotes;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsQueueGateway;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.backoff.RandomSource;
import dev.redrive.core.backoff.SecureRandomSource;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.EffectBreakers;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.functions.metrics.ConsumerMetrics;
import dev.redrive.functions.metrics.EmfOutput;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Wires the core's consumer machinery to the AWS adapters, once per container. Everything here is built from the
 * typed configuration; nothing is a global mutable singleton.
 */
@ApplicationScoped
public class ConsumerRuntime {

    @Produces
    @Singleton
    ConsumerMetrics consumerMetrics() {
        return new ConsumerMetrics(EmfOutput.stdout());
    }

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    RandomSource randomSource(RedriveConfig config) {
        return config.backoff()
                .seed()
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

    @Produces
    @Singleton
    DynamoDbClaimStore claimStore(DynamoDbClient dynamoDb, RedriveConfig config) {
        return new DynamoDbClaimStore(dynamoDb, config.claims().table());
    }

    @Produces
    @Singleton
    QueueDirectory queueDirectory(SqsClient sqs, RedriveConfig config) {
        return new QueueDirectory(sqs, config.deadLetters().queueUrl());
    }

    /** Where the claim checks are: the consumers and the sweeper read the same buckets. */
    @Produces
    @Singleton
    ClaimCheckSettings claimCheckSettings(RedriveConfig config) {
        RedriveConfig.ClaimChecks c = config.claimChecks();
        return new ClaimCheckSettings(c.bucket(), c.readableBuckets().orElse(List.of()), c.kmsKeyId());
    }

    /**
     * The queue gateway: a dead letter too large to go inline with its failure metadata goes by claim check; one with no
     * room for its metadata (SQS's ten attributes) keeps it in a note in the claims table, as long as claims count.
     */
    @Produces
    @Singleton
    SqsQueueGateway queueGateway(
            SqsClient sqs,
            QueueDirectory directory,
            ClaimCheckSettings claimChecks,
            S3Client s3,
            DynamoDbClient dynamoDb,
            RedriveConfig config,
            Clock clock) {
        return new SqsQueueGateway(
                sqs,
                directory,
                claimChecks.forCheckIn(s3),
                new SqsQueueGateway.Notes(
                        new DynamoDbDeadLetterNotes(dynamoDb, config.claims().table()),
                        config.claims().recordTtl(),
                        clock));
    }

    @Produces
    @Singleton
    FullJitterBackoff backoff(RedriveConfig config) {
        return new FullJitterBackoff(
                config.backoff().base(),
                config.backoff().multiplier(),
                config.backoff().maxDelay());
    }

    @Produces
    @Singleton
    LeasePolicy leasePolicy(RedriveConfig config) {
        return new LeasePolicy(
                config.claims().clockSkewMargin(),
                config.claims().minimumLease(),
                config.claims().recordTtl(),
                config.claims().effectMargin());
    }

    @Produces
    @Singleton
    BatchProcessor batchProcessor(
            DynamoDbClaimStore claims,
            LeasePolicy leases,
            FullJitterBackoff backoff,
            RandomSource random,
            Clock clock,
            SqsQueueGateway queues,
            ProcessingListener listener,
            EffectBreakers breakers,
            ClaimCheckSettings claimChecks,
            S3Client s3,
            RedriveConfig config) {
        MessageProcessor processor = new MessageProcessor(claims, leases, backoff, random, clock, listener, breakers)
                .withClaimChecks(claimChecks.on(s3), config.claimChecks().cleanup());
        // Lanes run on threads started per batch, not a container-wide pool: a hung effect holds only its own thread.
        return new BatchProcessor(processor, queues, Math.max(1, config.batch().concurrency()));
    }
}
