package dev.redrive.cdk.consumer;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.sqs.IQueue;

/**
 * The settings of an {@link AttachedConsumer}: the team's own queue and function, the claims table, and how Lambda
 * feeds the function. What a queue or function made in the same CDK app says of itself (its dead-letter queue and
 * maxReceiveCount, its visibility timeout and retention, the function's timeout) is read from it; the optional
 * settings below are needed only for an imported queue or function ({@code Queue.fromQueueArn}, {@code
 * Function.fromFunctionArn}), whose settings the app cannot see, and must agree with what it can see.
 *
 * @param name               the consumer's name, the first part of every claim key: the name the handler gives its
 *                           consumer ({@code Redrive...externalEffect("<name>", ...)}). Never rename one in production
 * @param queue              the queue the function consumes; it must have a redrive policy to a dead-letter queue
 * @param function           the consumer's function, of any runtime; what the queue's mapping invokes. A function
 *                           with SnapStart must be given as its alias (or version): SnapStart never applies to
 *                           {@code $LATEST}, and the construct refuses the unqualified function
 * @param claimsTable        the idempotency claims table the function claims in
 * @param deadLetterQueue    the queue's dead-letter queue; read from the queue's redrive policy when it has one here
 * @param maxReceiveCount    receives before SQS dead-letters a message; read from the redrive policy likewise
 * @param functionTimeout    the function's timeout; read from a function made in this app
 * @param visibilityTimeout  the queue's visibility timeout; read from a queue made in this app (SQS's default, 30 s,
 *                           when it sets none)
 * @param sourceRetention    the queue's message retention; read likewise (default 4 days)
 * @param deadLetterRetention the dead-letter queue's retention; read likewise
 * @param batchSize          records per invocation (default 10; 1 to 10, up to 10,000 with a batching window)
 * @param maxBatchingWindow  how long Lambda gathers a batch (default 0 s; whole seconds up to 300 s)
 * @param maxConcurrency     the most concurrent invocations the queue drives (default 5; 2 to 1,000; at most the
 *                           function's reserved concurrency, when it has one)
 * @param batchConcurrency   records of a batch the handler processes at once (default 10)
 * @param backoff            the retry backoff of TRANSIENT failures (default 2 s doubling up to 15 min)
 * @param minimumRetryWindow the shortest expected time a failing message may take to reach the dead-letter queue
 *                           (default 15 min, see {@link RetryWindow}); {@link Duration#ZERO} accepts any
 * @param buildVersion       the consumer's build version ({@code REDRIVE_BUILD_VERSION}): a release, a commit, an
 *                           image tag, at most 128 characters, one line; recorded with each failure, so the console
 *                           marks deploys. Empty (the default): the function records its published Lambda version,
 *                           else {@code unknown}
 */
public record AttachedConsumerProps(
        String name,
        IQueue queue,
        IFunction function,
        ITable claimsTable,
        Optional<IQueue> deadLetterQueue,
        Optional<Integer> maxReceiveCount,
        Optional<Duration> functionTimeout,
        Optional<Duration> visibilityTimeout,
        Optional<Duration> sourceRetention,
        Optional<Duration> deadLetterRetention,
        int batchSize,
        Duration maxBatchingWindow,
        int maxConcurrency,
        int batchConcurrency,
        BackoffSettings backoff,
        Duration minimumRetryWindow,
        Optional<String> buildVersion) {

    static final Pattern NAME = IdempotentConsumerProps.NAME; // one rule for a consumer's name

    /** Checks what can be checked without the queue and the function; {@link AttachedConsumer} checks the rest. */
    public AttachedConsumerProps {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(claimsTable, "claimsTable");
        Objects.requireNonNull(maxBatchingWindow, "maxBatchingWindow");
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(minimumRetryWindow, "minimumRetryWindow");
        buildVersion = ConsumerWiring.buildVersion(name, buildVersion);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("consumer name '" + name + "' must be 1 to 40 lower-case letters, "
                    + "digits and dashes: it is the first part of every claim key and of its route");
        }
        between(name, "batchConcurrency", batchConcurrency, 1, 10_000);
        maxReceiveCount.ifPresent(n -> between(name, "maxReceiveCount", n, 1, 1000));
        ConsumerWiring.checkScaling(name, batchSize, maxBatchingWindow, maxConcurrency, Optional.empty());
    }

    private static void between(String name, String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    what + " of " + name + " must be " + min + " to " + max + ", was " + value);
        }
    }

    /** A builder for the consumer {@code name} on {@code queue} and {@code function}, claiming in {@code claimsTable}. */
    public static Builder builder(String name, IQueue queue, IFunction function, ITable claimsTable) {
        return new Builder(name, queue, function, claimsTable);
    }

    /** Builds {@link AttachedConsumerProps}; everything but the name, queue, function and table has a default. */
    public static final class Builder {
        private final String name;
        private final IQueue queue;
        private final IFunction function;
        private final ITable claimsTable;
        private IQueue deadLetterQueue;
        private Integer maxReceiveCount;
        private Duration functionTimeout;
        private Duration visibilityTimeout;
        private Duration sourceRetention;
        private Duration deadLetterRetention;
        private int batchSize = 10;
        private Duration maxBatchingWindow = Duration.ZERO;
        private int maxConcurrency = 5;
        private int batchConcurrency = 10;
        private BackoffSettings backoff = BackoffSettings.DEFAULT;
        private Duration minimumRetryWindow = RetryWindow.DEFAULT_MINIMUM;
        private String buildVersion;

        private Builder(String name, IQueue queue, IFunction function, ITable claimsTable) {
            this.name = name;
            this.queue = queue;
            this.function = function;
            this.claimsTable = claimsTable;
        }

        /** The dead-letter queue of an imported queue, with its maxReceiveCount. */
        public Builder deadLetterQueue(IQueue value, int receives) {
            this.deadLetterQueue = value;
            this.maxReceiveCount = receives;
            return this;
        }

        /** The timeout of an imported function. */
        public Builder functionTimeout(Duration value) {
            this.functionTimeout = value;
            return this;
        }

        /** The visibility timeout of an imported queue. */
        public Builder visibilityTimeout(Duration value) {
            this.visibilityTimeout = value;
            return this;
        }

        /** The retentions of an imported queue and its dead-letter queue. */
        public Builder retention(Duration source, Duration deadLetter) {
            this.sourceRetention = source;
            this.deadLetterRetention = deadLetter;
            return this;
        }

        public Builder batchSize(int value) {
            this.batchSize = value;
            return this;
        }

        public Builder maxBatchingWindow(Duration value) {
            this.maxBatchingWindow = value;
            return this;
        }

        public Builder maxConcurrency(int value) {
            this.maxConcurrency = value;
            return this;
        }

        public Builder batchConcurrency(int value) {
            this.batchConcurrency = value;
            return this;
        }

        public Builder backoff(BackoffSettings value) {
            this.backoff = value;
            return this;
        }

        /** Lowers (or raises) the shortest accepted retry window; {@link Duration#ZERO} for a demo stack. */
        public Builder minimumRetryWindow(Duration value) {
            this.minimumRetryWindow = value;
            return this;
        }

        /**
         * The consumer's build version, set as {@code REDRIVE_BUILD_VERSION} (a release, a commit, an image tag; at
         * most 128 characters, one line), recorded with each failure. Unset: the published Lambda version, else
         * {@code unknown}.
         */
        public Builder buildVersion(String value) {
            this.buildVersion = value;
            return this;
        }

        public AttachedConsumerProps build() {
            return new AttachedConsumerProps(
                    name,
                    queue,
                    function,
                    claimsTable,
                    Optional.ofNullable(deadLetterQueue),
                    Optional.ofNullable(maxReceiveCount),
                    Optional.ofNullable(functionTimeout),
                    Optional.ofNullable(visibilityTimeout),
                    Optional.ofNullable(sourceRetention),
                    Optional.ofNullable(deadLetterRetention),
                    batchSize,
                    maxBatchingWindow,
                    maxConcurrency,
                    batchConcurrency,
                    backoff,
                    minimumRetryWindow,
                    Optional.ofNullable(buildVersion));
        }
    }
}
