package dev.redrive.cdk.consumer;

import dev.redrive.cdk.function.IsoDurations;
import dev.redrive.core.failure.FailureRecord;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.eventsources.SqsEventSource;
import software.amazon.awscdk.services.sqs.IQueue;

/**
 * What every idempotent consumer gets, however it was made ({@link IdempotentConsumer}, {@link AttachedConsumer}):
 * its {@code REDRIVE_*} variables, its event source mapping with partial batch responses, and its claims statement.
 */
final class ConsumerWiring {

    private ConsumerWiring() {}

    /** The variables the consumer's handler reads, sorted by name. */
    static SortedMap<String, String> variables(
            ITable claimsTable,
            IQueue deadLetterQueue,
            BackoffSettings backoff,
            int batchConcurrency,
            int receives,
            Optional<String> buildVersion) {
        SortedMap<String, String> env = new TreeMap<>();
        env.put(ConsumerEnvironment.CLAIMS_TABLE, claimsTable.getTableName());
        env.put(ConsumerEnvironment.DEAD_LETTERS_QUEUE_URL, deadLetterQueue.getQueueUrl());
        env.put(ConsumerEnvironment.BACKOFF_BASE, IsoDurations.format(backoff.base()));
        env.put(ConsumerEnvironment.BACKOFF_MULTIPLIER, backoff.multiplierText());
        env.put(ConsumerEnvironment.BACKOFF_MAX_DELAY, IsoDurations.format(backoff.maxDelay()));
        env.put(ConsumerEnvironment.BATCH_CONCURRENCY, Integer.toString(batchConcurrency));
        env.put(ConsumerEnvironment.BATCH_MAX_RECEIVE_COUNT, Integer.toString(receives));
        buildVersion.ifPresent(v -> env.put(ConsumerEnvironment.BUILD_VERSION, v));
        return Collections.unmodifiableSortedMap(env);
    }

    /**
     * {@code buildVersion} of consumer {@code name}, stripped, when it is one the consumer accepts (the core's rule:
     * non-blank, at most {@value FailureRecord#MAX_VERSION_LENGTH} characters, one line); refused naming why.
     */
    static Optional<String> buildVersion(String name, Optional<String> buildVersion) {
        Objects.requireNonNull(buildVersion, "buildVersion");
        buildVersion.ifPresent(v -> FailureRecord.versionProblem(v.strip()).ifPresent(problem -> {
            throw new IllegalArgumentException("buildVersion of consumer " + name + " " + problem
                    + (v.isBlank() ? ": leave it unset for the published Lambda version" : ""));
        }));
        return buildVersion.map(String::strip);
    }

    /**
     * Refuses, naming consumer {@code name} and the setting, what Lambda refuses for an SQS event source mapping
     * (the {@code CreateEventSourceMapping} API reference, and "Configuring scaling behavior for SQS event source
     * mappings" in the Lambda developer guide): a batch of 1 to 10 records, up to 10,000 only with a batching window
     * of at least 1 s; a window of 0 to 300 s; a maximum concurrency of 2 to 1,000. And a reserved concurrency below the
     * maximum concurrency, which the guide warns against: the mapping would invoke more instances than the function may
     * run, and every throttled batch goes back to the queue with its receive count raised, on its way to the DLQ.
     */
    static void checkScaling(
            String name,
            int batchSize,
            Duration batchingWindow,
            int maxConcurrency,
            Optional<Integer> reservedConcurrency) {
        between(name, "batchSize", batchSize, 1, 10_000);
        between(name, "maxConcurrency", maxConcurrency, 2, 1000);
        if (batchingWindow.isNegative()
                || batchingWindow.compareTo(Duration.ofMinutes(5)) > 0
                || batchingWindow.getNano() != 0) {
            throw new IllegalArgumentException("maxBatchingWindow of " + name
                    + " must be whole seconds from 0 to 300 s," + " was " + batchingWindow);
        }
        if (batchSize > 10 && batchingWindow.isZero()) {
            throw new IllegalArgumentException("batchSize " + batchSize + " of " + name
                    + " needs a maxBatchingWindow above 0 s (Lambda allows more than 10 only with a window)");
        }
        reservedConcurrency.ifPresent(reserved -> {
            if (reserved < maxConcurrency) {
                throw new IllegalArgumentException("reservedConcurrency " + reserved + " of " + name + " is below its"
                        + " maxConcurrency " + maxConcurrency + ": the queue's mapping would invoke more instances than"
                        + " the function may run, and each throttled batch returns to the queue with its receive count"
                        + " raised, on its way to the DLQ. Reserve at least " + maxConcurrency + " or lower"
                        + " maxConcurrency");
            }
        });
    }

    private static void between(String name, String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    what + " of " + name + " must be " + min + " to " + max + ", was " + value);
        }
    }

    /** The event source mapping of {@code queue}: partial batch responses, the batch and its concurrency. */
    static SqsEventSource eventSource(IQueue queue, int batchSize, Duration batchingWindow, int maxConcurrency) {
        return SqsEventSource.Builder.create(queue)
                .reportBatchItemFailures(true)
                .batchSize(batchSize)
                .maxBatchingWindow(software.amazon.awscdk.Duration.seconds(batchingWindow.toSeconds()))
                .maxConcurrency(maxConcurrency)
                .build();
    }

    /** The consumer's actions on the claims table ({@link IdempotentConsumer#CLAIMS_ACTIONS}), nothing else. */
    static PolicyStatement claimsStatement(ITable claimsTable) {
        return PolicyStatement.Builder.create()
                .sid("IdempotencyClaims")
                .actions(IdempotentConsumer.CLAIMS_ACTIONS)
                .resources(List.of(claimsTable.getTableArn()))
                .build();
    }
}
