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
