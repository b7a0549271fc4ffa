package dev.redrive.cdk.monitoring;

import dev.redrive.cdk.consumer.IIdempotentConsumer;
import dev.redrive.cdk.sweeper.DlqSweeper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;

/**
 * What {@link Monitoring} watches and how. {@link #builder(String, IKey, DlqSweeper)} fills it from the consumers and
 * the sweeper; the canonical constructor takes every part as it is.
 *
 * @param prefix            the name prefix of alarms ({@code <prefix>-...}) and the dashboard ({@code
 *                          <prefix>-redrive}): letters, digits, {@code -} and {@code _}, at most 64, starting with a
 *                          letter or digit
 * @param key               the customer-managed key that encrypts the alarm topic
 * @param queues            every queue to alarm on and chart, in the order charted; names unique
 * @param consumers         the consumers' names, for the per-consumer graphs
 * @param breakers          the dependencies whose circuit breakers alarm when they stay open too long
 * @param consumerLogGroups the consumers' log group names, where the breakers' transitions are logged (the
 *                          dashboard's breaker history reads them)
 * @param sweeper           the sweeper function, whose errors alarm
 * @param thresholds        where the alarms fire
 */
public record MonitoringProps(
        String prefix,
        IKey key,
        List<MonitoredQueue> queues,
        List<String> consumers,
        List<String> breakers,
        List<String> consumerLogGroups,
        IFunction sweeper,
        AlarmThresholds thresholds) {

    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    private static final Pattern DEPENDENCY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    /** Checks every part and copies the lists; a bad part is refused naming its setting. */
    public MonitoringProps {
        Objects.requireNonNull(prefix, "prefix");
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("monitoring prefix '" + prefix + "' must be 1 to 64 letters, digits, -"
                    + " and _, starting with a letter or digit: it names the alarms and the dashboard");
        }
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sweeper, "sweeper");
        Objects.requireNonNull(thresholds, "thresholds");
        queues = List.copyOf(queues);
        consumers = List.copyOf(consumers);
        breakers = List.copyOf(breakers);
        consumerLogGroups = List.copyOf(consumerLogGroups);
        Set<String> queueNames = new HashSet<>();
        for (MonitoredQueue q : queues) {
            if (!queueNames.add(q.name())) {
                throw new IllegalArgumentException(
                        "monitoring queues: " + q.name() + " is given twice; its alarms are " + "named after it");
            }
        }
        Set<String> dependencies = new HashSet<>();
        for (String dependency : breakers) {
            if (!DEPENDENCY.matcher(dependency).matches()) {
                throw new IllegalArgumentException("monitoring breakers: '" + dependency + "' is not a dependency name"
                        + " (letters, digits, '.', '-' and '_'): its alarm is named after it");
            }
            if (!dependencies.add(dependency)) {
                throw new IllegalArgumentException("monitoring breakers: " + dependency + " is given twice");
            }
        }
        for (String consumer : consumers) {
            if (consumer.isBlank()) {
                throw new IllegalArgumentException("monitoring consumers: a consumer's name is blank");
            }
        }
    }

    /**
     * A builder of the props for {@code sweeper} and the consumers it serves: alarms named {@code <prefix>-...}, the
     * topic encrypted with {@code key}.
     */
    public static Builder builder(String prefix, IKey key, DlqSweeper sweeper) {
        return new Builder(prefix, key, sweeper);
    }

    /**
     * Builds {@link MonitoringProps}. The queues are charted in this order: each consumer's source queue and
     * dead-letter queue, in the order the consumers were added, then the sweeper schedule's dead-letter queue (a
     * {@link MonitoredQueue.Kind#FAILURE_RECORD}), then the queues added with {@link #queue(MonitoredQueue)}.
     */
    public static final class Builder {
        private final String prefix;
        private final IKey key;
        private final DlqSweeper sweeper;
        private final List<MonitoredQueue> consumerQueues = new ArrayList<>();
        private final List<MonitoredQueue> otherQueues = new ArrayList<>();
        private final List<String> consumers = new ArrayList<>();
        private final List<String> logGroups = new ArrayList<>();
        private final List<String> breakers = new ArrayList<>();
        private AlarmThresholds thresholds = AlarmThresholds.DEFAULT;

        private Builder(String prefix, IKey key, DlqSweeper sweeper) {
            this.prefix = prefix;
            this.key = key;
            this.sweeper = Objects.requireNonNull(sweeper, "sweeper");
        }

        /**
         * Watches {@code consumer}: its source queue ({@link MonitoredQueue.Kind#SOURCE}) and dead-letter queue
         * ({@link MonitoredQueue.Kind#DEAD_LETTER}), its processed and duplicate counts, and its function's log group
         * (the breakers' history).
         */
        public Builder consumer(IIdempotentConsumer consumer) {
            consumerQueues.add(
                    new MonitoredQueue(consumer.sourceQueueName(), consumer.sourceQueue(), MonitoredQueue.Kind.SOURCE));
            consumerQueues.add(new MonitoredQueue(
                    consumer.deadLetterQueueName(), consumer.deadLetterQueue(), MonitoredQueue.Kind.DEAD_LETTER));
            consumers.add(consumer.name());
            logGroups.add(logGroupName(consumer.function()));
            return this;
        }

        /**
         * The function's log group: the one it logs to when it is made in this app, else Lambda's default, {@code
         * /aws/lambda/<name>} (an imported function that logs elsewhere: give its props' log groups yourself).
         */
        private static String logGroupName(IFunction function) {
            if (function instanceof Function made) {
                return made.getLogGroup().getLogGroupName();
            }
            return "/aws/lambda/" + function.getFunctionName();
        }

        /** Watches each of {@code list}, as {@link #consumer(IIdempotentConsumer)}. */
        public Builder consumers(List<? extends IIdempotentConsumer> list) {
            list.forEach(this::consumer);
            return this;
        }

        /** Alarms when the circuit breaker of {@code dependency} stays open too long, and charts it. */
        public Builder breaker(String dependency) {
            breakers.add(Objects.requireNonNull(dependency, "breaker"));
            return this;
        }

        /** Alarms on and charts a further queue of the app (after the consumers' and the sweeper's). */
        public Builder queue(MonitoredQueue queue) {
            otherQueues.add(Objects.requireNonNull(queue, "queue"));
            return this;
        }

        /** Where the alarms fire (default {@link AlarmThresholds#DEFAULT}). */
        public Builder thresholds(AlarmThresholds value) {
            this.thresholds = Objects.requireNonNull(value, "thresholds");
            return this;
        }

        /** The props; checked as the canonical constructor checks them. */
        public MonitoringProps build() {
            List<MonitoredQueue> queues = new ArrayList<>(consumerQueues);
            queues.add(new MonitoredQueue(
                    sweeper.scheduleDeadLetterQueueName(),
                    sweeper.scheduleDeadLetterQueue(),
                    MonitoredQueue.Kind.FAILURE_RECORD));
            queues.addAll(otherQueues);
            return new MonitoringProps(
                    prefix, key, queues, consumers, breakers, logGroups, sweeper.function(), thresholds);
        }
    }
}
