package dev.redrive.cdk.consumer;

import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.core.consumer.VisibilityRule;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The settings of one {@link IdempotentConsumer}. Built with {@link #builder(String, String)}; {@link Builder#build()}
 * rejects settings SQS or Lambda would reject, or that would break Redrive's rules (a visibility timeout shorter than
 * six function timeouts, a dead-letter queue that forgets messages before its source does).
 *
 * @param name               the consumer's name: queue {@code <prefix>-<name>}, DLQ {@code <prefix>-<name>-dlq}
 * @param handler            the Quarkus {@code @Named} handler ({@code QUARKUS_LAMBDA_HANDLER})
 * @param runtime            JVM (default) or native
 * @param maxReceiveCount    receives before SQS moves a message to the DLQ (default 10; see {@link RetryWindow})
 * @param timeout            the function timeout (default 30 s)
 * @param memoryMb           the function memory; empty: the runtime's default
 * @param visibilityTimeout  the source queue's visibility timeout (default and minimum: 6 x timeout + the batching
 *                           window, as AWS recommends for an SQS event source)
 * @param sourceRetention    how long the source queue keeps a message (default 4 days)
 * @param deadLetterRetention how long the DLQ keeps a message (default 14 days, the SQS maximum; must exceed the
 *                           source's, as the age of a message counts from its first enqueue)
 * @param batchSize          records per invocation (default 10; 1 to 10, up to 10,000 with a batching window)
 * @param maxBatchingWindow  how long Lambda gathers a batch (default 0 s; whole seconds up to 300 s)
 * @param maxConcurrency     the most concurrent invocations the queue drives (default 5; 2 to 1,000)
 * @param batchConcurrency   records of a batch processed at once inside one invocation (default 10)
 * @param reservedConcurrency the concurrency reserved for the function, so no other function of the account can
 *                           starve it (it is also its ceiling); at least {@code maxConcurrency}. Empty (the
 *                           default): none, it shares the account's unreserved pool
 * @param backoff            the retry backoff for TRANSIENT failures
 * @param environment        extra environment variables of the function
 * @param buildVersion       the consumer's build version ({@code REDRIVE_BUILD_VERSION}): a release, a commit, an
 *                           image tag, at most 128 characters, one line; recorded with each failure, so the console
 *                           marks deploys. Empty (the default): the function records its published Lambda version,
 *                           else {@code unknown}
 */
public record IdempotentConsumerProps(
        String name,
        String handler,
        FunctionRuntime runtime,
        int maxReceiveCount,
        Duration timeout,
        Optional<Integer> memoryMb,
        Duration visibilityTimeout,
        Duration sourceRetention,
        Duration deadLetterRetention,
        int batchSize,
        Duration maxBatchingWindow,
        int maxConcurrency,
        int batchConcurrency,
        BackoffSettings backoff,
        Map<String, String> environment,
        Optional<String> buildVersion,
        Optional<Integer> reservedConcurrency) {

    /** A consumer name: 1 to 40 lower-case letters, digits and dashes (part of queue names and claim keys). */
    static final Pattern NAME = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?");

    /** Validates; see {@link Builder#build()}. */
    public IdempotentConsumerProps {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(visibilityTimeout, "visibilityTimeout");
        Objects.requireNonNull(sourceRetention, "sourceRetention");
        Objects.requireNonNull(deadLetterRetention, "deadLetterRetention");
        Objects.requireNonNull(maxBatchingWindow, "maxBatchingWindow");
        environment = Map.copyOf(environment);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("consumer name '" + name + "' must be 1 to 40 lower-case letters, "
                    + "digits and dashes: it becomes part of the queue names");
        }
        between("maxReceiveCount", maxReceiveCount, 1, 1000);
        between("batchConcurrency", batchConcurrency, 1, 10_000);
        Objects.requireNonNull(reservedConcurrency, "reservedConcurrency");
        ConsumerWiring.checkScaling(name, batchSize, maxBatchingWindow, maxConcurrency, reservedConcurrency);
        checkQueueTimes(name, timeout, maxBatchingWindow, visibilityTimeout, sourceRetention, deadLetterRetention);
        buildVersion = ConsumerWiring.buildVersion(name, buildVersion);
    }

    private static void checkQueueTimes(
            String name, Duration timeout, Duration window, Duration visibility, Duration source, Duration deadLetter) {
        Duration minimum = VisibilityRule.minimum(timeout, window);
        if (!VisibilityRule.holds(visibility, timeout, window)) {
            throw new IllegalArgumentException("visibility timeout " + visibility + " of " + name + " is shorter than "
                    + VisibilityRule.FACTOR + " x the function timeout " + timeout + " + the batching window "
                    + window + " (" + minimum + "): a slow invocation's messages would be delivered again while it "
                    + "still runs");
        }
        if (visibility.compareTo(Duration.ofHours(12)) > 0) {
            throw new IllegalArgumentException("visibility timeout " + visibility + " of " + name
                    + " exceeds the SQS maximum of 12 h; shorten the function timeout");
        }
        if (source.compareTo(Duration.ofMinutes(1)) < 0 || deadLetter.compareTo(Duration.ofDays(14)) > 0) {
            throw new IllegalArgumentException("retention of " + name + " must be 1 min to 14 days (SQS limits)");
        }
        if (deadLetter.compareTo(source) <= 0) {
            throw new IllegalArgumentException("dead-letter retention " + deadLetter + " of " + name
                    + " must be longer than the source retention " + source + ": a message's age counts from its"
                    + " first enqueue, so a shorter DLQ retention deletes dead letters on arrival");
        }
    }

    private static void between(String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " must be " + min + " to " + max + ", was " + value);
        }
    }

    /** The memory to give the function. */
    public int effectiveMemoryMb() {
        return memoryMb.orElse(runtime.defaultMemoryMb());
    }

    /** A builder with Redrive's defaults for the consumer {@code name} running the handler {@code handler}. */
    public static Builder builder(String name, String handler) {
        return new Builder(name, handler);
    }

    /** Builds {@link IdempotentConsumerProps}; every setting but name and handler has a default. */
    public static final class Builder {
        private final String name;
        private final String handler;
        private FunctionRuntime runtime = FunctionRuntime.JVM;
        private int maxReceiveCount = 10;
        private Duration timeout = Duration.ofSeconds(30);
        private Integer memoryMb;
        private Duration visibilityTimeout;
        private Duration sourceRetention = Duration.ofDays(4);
        private Duration deadLetterRetention = Duration.ofDays(14);
        private int batchSize = 10;
        private Duration maxBatchingWindow = Duration.ZERO;
        private int maxConcurrency = 5;
        private int batchConcurrency = 10;
        private BackoffSettings backoff = BackoffSettings.DEFAULT;
        private final Map<String, String> environment = new TreeMap<>();
        private String buildVersion;
        private Integer reservedConcurrency;

        private Builder(String name, String handler) {
            this.name = name;
            this.handler = handler;
        }

        public Builder runtime(FunctionRuntime value) {
            this.runtime = value;
            return this;
        }

        public Builder maxReceiveCount(int value) {
            this.maxReceiveCount = value;
            return this;
        }

        public Builder timeout(Duration value) {
            this.timeout = value;
            return this;
        }

        public Builder memoryMb(int value) {
            this.memoryMb = value;
            return this;
        }

        /** Overrides the default of 6 x timeout + the batching window; a shorter value is rejected. */
        public Builder visibilityTimeout(Duration value) {
            this.visibilityTimeout = value;
            return this;
        }

        public Builder sourceRetention(Duration value) {
            this.sourceRetention = value;
            return this;
        }

        public Builder deadLetterRetention(Duration value) {
            this.deadLetterRetention = value;
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

        /** Adds one environment variable of the function. */
        public Builder environment(String variable, String value) {
            this.environment.put(variable, value);
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

        /**
         * Reserves {@code value} concurrent instances for the function (at least {@code maxConcurrency}), so no other
         * function of the account can starve it; it is also its ceiling. Lambda keeps 100 of the account's limit
         * unreserved, so the account's reservations must stay below its limit minus 100.
         */
        public Builder reservedConcurrency(int value) {
            this.reservedConcurrency = value;
            return this;
        }

        /** Applies the event source mapping's and the function's scaling settings. */
        public Builder scaling(ConsumerScaling value) {
            this.batchSize = value.batchSize();
            this.maxBatchingWindow = value.maxBatchingWindow();
            this.maxConcurrency = value.maxConcurrency();
            this.reservedConcurrency = value.reservedConcurrency().orElse(null);
            return this;
        }

        /** The props; throws {@link IllegalArgumentException} naming the setting that breaks a limit or a rule. */
        public IdempotentConsumerProps build() {
            Duration visibility =
                    visibilityTimeout != null ? visibilityTimeout : VisibilityRule.minimum(timeout, maxBatchingWindow);
            return new IdempotentConsumerProps(
                    name,
                    handler,
                    runtime,
                    maxReceiveCount,
                    timeout,
                    Optional.ofNullable(memoryMb),
                    visibility,
                    sourceRetention,
                    deadLetterRetention,
                    batchSize,
                    maxBatchingWindow,
                    maxConcurrency,
                    batchConcurrency,
                    backoff,
                    environment,
                    Optional.ofNullable(buildVersion),
                    Optional.ofNullable(reservedConcurrency));
        }
    }
}
