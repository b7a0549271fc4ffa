package dev.redrive.cdk.monitoring;

import dev.redrive.cdk.consumer.IIdempotentConsumer;
import dev.redrive.cdk.storage.Tables;
import dev.redrive.cdk.sweeper.DlqSweeper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
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
 * @param sweeper           the sweeper function: its errors and throttles alarm as {@code <prefix>-sweeper-...}
 * @param thresholds        where the alarms fire
 * @param functions         further functions whose errors and throttles alarm (the consumers'); names unique and not
 *                          {@code sweeper}
 * @param tables            the DynamoDB tables (and their indexes) whose throttles alarm; names unique
 * @param notifications     the topic the alarms notify, and who is subscribed to it
 * @param runbook           the runbook every alarm's description links to, {@code <runbook>#<section>}: a URL or a
 *                          path (default {@value #DEFAULT_RUNBOOK}, this repository's, whose sections are named in
 *                          it); at most 200 characters
 */
public record MonitoringProps(
        String prefix,
        IKey key,
        List<MonitoredQueue> queues,
        List<String> consumers,
        List<String> breakers,
        List<String> consumerLogGroups,
        IFunction sweeper,
        AlarmThresholds thresholds,
        List<MonitoredFunction> functions,
        List<MonitoredTable> tables,
        AlarmNotifications notifications,
        String runbook) {

    /** The runbook the alarms link to by default: this repository's, by its path. */
    public static final String DEFAULT_RUNBOOK = "docs/runbook.md";

    /** The name of the sweeper's function alarms; no other function may take it. */
    public static final String SWEEPER = "sweeper";

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
        Objects.requireNonNull(notifications, "notifications");
        Objects.requireNonNull(runbook, "runbook");
        if (runbook.isBlank() || runbook.length() > 200 || runbook.contains("#") || runbook.matches(".*\\s.*")) {
            throw new IllegalArgumentException("monitoring runbook '" + runbook + "' must be a URL or path of at most"
                    + " 200 characters without spaces or '#': each alarm's description ends in <runbook>#<section>");
        }
        functions = List.copyOf(functions);
        tables = List.copyOf(tables);
        Set<String> functionNames = new HashSet<>(Set.of(SWEEPER));
        for (MonitoredFunction f : functions) {
            if (!functionNames.add(f.name())) {
                throw new IllegalArgumentException("monitoring functions: " + f.name() + " is given twice or is the"
                        + " sweeper's name; its alarms are named after it");
            }
        }
        Set<String> tableNames = new HashSet<>();
        for (MonitoredTable t : tables) {
            if (!tableNames.add(t.name())) {
                throw new IllegalArgumentException(
                        "monitoring tables: " + t.name() + " is given twice; its alarms are named after it");
            }
        }
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
     * Props without further functions or tables, notifying a topic of its own nobody is subscribed to, linking the
     * default runbook.
     */
    public MonitoringProps(
            String prefix,
            IKey key,
            List<MonitoredQueue> queues,
            List<String> consumers,
            List<String> breakers,
            List<String> consumerLogGroups,
            IFunction sweeper,
            AlarmThresholds thresholds) {
        this(
                prefix,
                key,
                queues,
                consumers,
                breakers,
                consumerLogGroups,
                sweeper,
                thresholds,
                List.of(),
                List.of(),
                AlarmNotifications.NONE,
                DEFAULT_RUNBOOK);
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
        private final List<MonitoredFunction> functions = new ArrayList<>();
        private final List<MonitoredTable> tables = new ArrayList<>();
        private AlarmThresholds thresholds = AlarmThresholds.DEFAULT;
        private AlarmNotifications notifications = AlarmNotifications.NONE;
        private String runbook = DEFAULT_RUNBOOK;

        private Builder(String prefix, IKey key, DlqSweeper sweeper) {
            this.prefix = prefix;
            this.key = key;
            this.sweeper = Objects.requireNonNull(sweeper, "sweeper");
        }

        /**
         * Watches {@code consumer}: its source queue ({@link MonitoredQueue.Kind#SOURCE}) and dead-letter queue
         * ({@link MonitoredQueue.Kind#DEAD_LETTER}), its processed and duplicate counts, its function's errors and
         * throttles (alarms named after the consumer), and its function's log group (the breakers' history).
         */
        public Builder consumer(IIdempotentConsumer consumer) {
            consumerQueues.add(
                    new MonitoredQueue(consumer.sourceQueueName(), consumer.sourceQueue(), MonitoredQueue.Kind.SOURCE));
            consumerQueues.add(new MonitoredQueue(
                    consumer.deadLetterQueueName(), consumer.deadLetterQueue(), MonitoredQueue.Kind.DEAD_LETTER));
            consumers.add(consumer.name());
            logGroups.add(logGroupName(consumer.function()));
            functions.add(new MonitoredFunction(consumer.name(), consumer.function()));
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

        /** Alarms on the errors and throttles of a further function of the app. */
        public Builder function(MonitoredFunction function) {
            functions.add(Objects.requireNonNull(function, "function"));
            return this;
        }

        /** Alarms on the throttles of a table of the app and of its global secondary indexes. */
        public Builder table(MonitoredTable table) {
            tables.add(Objects.requireNonNull(table, "table"));
            return this;
        }

        /**
         * Alarms on the throttles of the platform's tables: {@code claims}, {@code quarantine} (with its indexes
         * {@value Tables#BY_STATE_INDEX} and {@value Tables#BY_QUEUE_INDEX}) and {@code control}.
         */
        public Builder tables(Tables platform) {
            table(new MonitoredTable("claims", platform.claims()));
            table(new MonitoredTable(
                    "quarantine", platform.quarantine(), List.of(Tables.BY_STATE_INDEX, Tables.BY_QUEUE_INDEX)));
            table(new MonitoredTable("control", platform.control()));
            return this;
        }

        /** The topic and its subscribers (default {@link AlarmNotifications#NONE}). */
        public Builder notifications(AlarmNotifications value) {
            this.notifications = Objects.requireNonNull(value, "notifications");
            return this;
        }

        /** The runbook the alarms link to (default {@value MonitoringProps#DEFAULT_RUNBOOK}). */
        public Builder runbook(String value) {
            this.runbook = Objects.requireNonNull(value, "runbook");
            return this;
        }

        /** Where the alarms fire (default {@link AlarmThresholds#DEFAULT}). */
        public Builder thresholds(AlarmThresholds value) {
            this.thresholds = Objects.requireNonNull(value, "thresholds");
            return this;
        }

        /**
         * The props; checked as the canonical constructor checks them, and the sweeper's heartbeat window against its
         * schedule when that is a {@code rate(...)} ({@link AlarmThresholds#requireHeartbeatCovers}).
         */
        public MonitoringProps build() {
            sweepInterval(sweeper.scheduleExpression()).ifPresent(thresholds::requireHeartbeatCovers);
            List<MonitoredQueue> queues = new ArrayList<>(consumerQueues);
            queues.add(MonitoredQueue.failureRecord(
                    sweeper.scheduleDeadLetterQueueName(),
                    sweeper.scheduleDeadLetterQueue(),
                    "A dead-letter sweeper run failed, went stale or could not be invoked: its dead letters stay in"
                            + " their queues until the next run"));
            queues.addAll(otherQueues);
            return new MonitoringProps(
                    prefix,
                    key,
                    queues,
                    consumers,
                    breakers,
                    logGroups,
                    sweeper.function(),
                    thresholds,
                    functions,
                    tables,
                    notifications,
                    runbook);
        }

        /** The interval of a {@code rate(N unit)} schedule; empty for {@code cron(...)} and {@code at(...)}. */
        static Optional<java.time.Duration> sweepInterval(String expression) {
            Matcher rate = RATE.matcher(expression);
            if (!rate.matches()) {
                return Optional.empty();
            }
            long n = Long.parseLong(rate.group(1));
            return Optional.of(
                    switch (rate.group(2)) {
                        case "minute", "minutes" -> java.time.Duration.ofMinutes(n);
                        case "hour", "hours" -> java.time.Duration.ofHours(n);
                        default -> java.time.Duration.ofDays(n);
                    });
        }

        private static final Pattern RATE = Pattern.compile("rate\\((\\d+) (minutes?|hours?|days?)\\)");
    }
}
