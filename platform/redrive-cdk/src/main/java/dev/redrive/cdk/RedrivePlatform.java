package dev.redrive.cdk;

import dev.redrive.cdk.consumer.AttachedConsumer;
import dev.redrive.cdk.consumer.AttachedConsumerProps;
import dev.redrive.cdk.consumer.ClaimTtl;
import dev.redrive.cdk.consumer.ClaimTtlWiring;
import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.cdk.monitoring.AlarmThresholds;
import dev.redrive.cdk.monitoring.Monitoring;
import dev.redrive.cdk.monitoring.MonitoringProps;
import dev.redrive.cdk.storage.Buckets;
import dev.redrive.cdk.storage.Tables;
import dev.redrive.cdk.sweeper.DlqSweeper;
import dev.redrive.cdk.sweeper.SweeperCode;
import dev.redrive.cdk.sweeper.SweeperProps;
import dev.redrive.cdk.sweeper.SweptConsumer;
import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.schema.ContractFiles;
import dev.redrive.schema.DeclaredRoute;
import dev.redrive.schema.EventContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * Redrive on a team's own queues and functions, in one construct: the customer-managed key, the claims, quarantine
 * and control tables, the archive and claim-check buckets, each consumer attached ({@link AttachedConsumer}) with its
 * route, and the dead-letter sweeper running its own code ({@link SweeperCode}) on a schedule, serving every
 * consumer by its declared contract. The claim TTL is derived from the consumers' retentions and set on every
 * function ({@link ClaimTtlWiring}). With {@link Builder#monitoring(AlarmThresholds)}, every consumer's queues, its
 * breaker and the sweeper get alarms and a dashboard ({@link Monitoring}).
 *
 * <pre>{@code
 * RedrivePlatform.Builder.create(this, "Redrive")
 *         .consumer("receipts", ordersQueue, receiptsFunction, contract)
 *         .build();
 * }</pre>
 */
public final class RedrivePlatform extends Construct {

    private final IKey key;
    private final Tables tables;
    private final Buckets buckets;
    private final Map<String, AttachedConsumer> consumers = new LinkedHashMap<>();
    private final DlqSweeper sweeper;
    private final Optional<Monitoring> monitoring;

    private RedrivePlatform(Construct scope, String id, Builder b) {
        super(scope, id);
        this.key = b.key != null
                ? b.key
                : Key.Builder.create(this, "DataKey")
                        .description("Redrive: encrypts its tables and buckets (" + b.prefix + ")")
                        .enableKeyRotation(true)
                        .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE)
                        .build();
        this.tables = Tables.create(this, key, b.deletionProtection);
        this.buckets = Buckets.create(this, key, b.archiveExpiryDays);
        List<SweptConsumer> swept = new ArrayList<>();
        for (ConsumerSpec spec : b.consumers) {
            AttachedConsumer consumer = new AttachedConsumer(
                    this,
                    spec.id(),
                    spec.settings()
                            .apply(AttachedConsumerProps.builder(
                                    spec.name(), spec.queue(), spec.function(), tables.claims()))
                            .build());
            consumers.put(spec.name(), consumer);
            swept.add(new SweptConsumer(
                    consumer,
                    new DeclaredRoute(
                            spec.name(),
                            consumer.sourceQueueName(),
                            consumer.deadLetterQueueName(),
                            Optional.of(spec.contract()),
                            spec.breaker())));
        }
        SweeperCode code = b.sweeperCode != null ? b.sweeperCode : SweeperCode.fromClassPath();
        this.sweeper = new DlqSweeper(
                this,
                "Sweeper",
                new SweeperProps(
                        b.prefix,
                        FunctionRuntime.JVM,
                        code.functions(b.architecture),
                        key,
                        tables,
                        buckets.archive(),
                        swept,
                        b.quarantineRetention,
                        b.sweepRate,
                        b.replayPace,
                        Duration.ofDays(b.tombstoneExpiryDays == null ? b.archiveExpiryDays : b.tombstoneExpiryDays)));
        ClaimTtlWiring.apply(
                ClaimTtl.derive(List.copyOf(consumers.values()), b.quarantineRetention, Optional.empty()),
                buckets,
                List.copyOf(consumers.values()),
                sweeper,
                ClaimCheckCleanup.LIFECYCLE);
        this.monitoring = Optional.ofNullable(b.alarms).map(thresholds -> monitoring(b, thresholds));
    }

    /** Alarms and the dashboard of every attached consumer, each breaker named once, and the sweeper. */
    private Monitoring monitoring(Builder b, AlarmThresholds thresholds) {
        MonitoringProps.Builder props = MonitoringProps.builder(b.prefix, key, sweeper)
                .consumers(List.copyOf(consumers.values()))
                .tables(tables)
                .thresholds(thresholds);
        b.consumers.stream()
                .map(ConsumerSpec::breaker)
                .flatMap(Optional::stream)
                .distinct()
                .forEach(props::breaker);
        return new Monitoring(this, "Monitoring", props.build());
    }

    /** The key of the tables and buckets. */
    public IKey key() {
        return key;
    }

    /** The claims, quarantine and control tables. */
    public Tables tables() {
        return tables;
    }

    /** The archive and claim-check buckets. */
    public Buckets buckets() {
        return buckets;
    }

    /** The attached consumers, by name. */
    public Map<String, AttachedConsumer> consumers() {
        return Map.copyOf(consumers);
    }

    /** The sweeper. */
    public DlqSweeper sweeper() {
        return sweeper;
    }

    /**
     * The alarms and the dashboard, when {@link Builder#monitoring(AlarmThresholds)} asked for them: add the app's own
     * with {@link Monitoring#addAlarm} and {@link Monitoring#addDashboardRow}.
     */
    public Optional<Monitoring> monitoring() {
        return monitoring;
    }

    private record ConsumerSpec(
            String id,
            String name,
            IQueue queue,
            IFunction function,
            EventContract contract,
            Optional<String> breaker,
            UnaryOperator<AttachedConsumerProps.Builder> settings) {}

    /** Builds a {@link RedrivePlatform}: at least one consumer; everything else has a default. */
    public static final class Builder {
        private final Construct scope;
        private final String id;
        private final List<ConsumerSpec> consumers = new ArrayList<>();
        private String prefix = "redrive";
        private IKey key;
        private SweeperCode sweeperCode;
        private Architecture architecture = Architecture.ARM_64;
        private Duration quarantineRetention = Duration.ofDays(7);
        private String sweepRate = "rate(5 minutes)";
        private ReplayPace replayPace = ReplayPace.DEFAULT;
        private int archiveExpiryDays = 365;
        private Integer tombstoneExpiryDays;
        private boolean deletionProtection = true;
        private AlarmThresholds alarms;

        private Builder(Construct scope, String id) {
            this.scope = scope;
            this.id = id;
        }

        /** A builder of the platform {@code id} in {@code scope}. */
        public static Builder create(Construct scope, String id) {
            return new Builder(scope, id);
        }

        /**
         * Attaches the consumer {@code name} (the name its handler gives it: part of every claim key) on
         * {@code queue} and {@code function}, whose messages {@code contract} describes (where the key is, the
         * schemas): the sweeper checks its replays by it, without its code.
         */
        public Builder consumer(String name, IQueue queue, IFunction function, EventContract contract) {
            return consumer(name, queue, function, contract, Optional.empty(), UnaryOperator.identity());
        }

        /**
         * Attaches the consumer {@code name} on {@code queue} and {@code function}, which reads events of
         * {@code eventType} as the app's contract files declare them ({@code contracts/<eventType>.json},
         * {@code schemas/<eventType>/v<n>.json}, {@code upcasters/...}: {@code ContractFiles}), read from the class path
         * of the app (its {@code src/main/resources}).
         */
        public Builder consumer(String name, IQueue queue, IFunction function, String eventType) {
            return consumer(
                    name,
                    queue,
                    function,
                    ContractFiles.read(
                            name,
                            eventType,
                            ContractFiles.classpath(Thread.currentThread().getContextClassLoader())));
        }

        /**
         * As {@link #consumer(String, IQueue, IFunction, EventContract)}, guarded by the circuit breaker of
         * {@code breaker} (its replays paced by it, holdable in a maintenance window), with further
         * {@code settings} (batch size, backoff, an imported queue's or function's declared settings).
         */
        public Builder consumer(
                String name,
                IQueue queue,
                IFunction function,
                EventContract contract,
                Optional<String> breaker,
                UnaryOperator<AttachedConsumerProps.Builder> settings) {
            Objects.requireNonNull(contract, "contract");
            if (!contract.consumer().equals(name)) {
                throw new IllegalArgumentException("the contract given for consumer " + name + " is the contract of "
                        + contract.consumer() + ": its claim keys would not match the consumer's");
            }
            String constructId = "Consumer" + toPascal(name);
            if (consumers.stream().anyMatch(c -> c.name().equals(name))) {
                throw new IllegalArgumentException("consumer " + name + " is attached twice: a consumer's name is part"
                        + " of its claim keys and must be unique");
            }
            consumers.add(new ConsumerSpec(constructId, name, queue, function, contract, breaker, settings));
            return this;
        }

        /** The name prefix of what is named explicitly (default {@code redrive}). */
        public Builder prefix(String value) {
            this.prefix = Objects.requireNonNull(value, "prefix");
            return this;
        }

        /** An existing key for the tables and buckets, instead of a new one. */
        public Builder key(IKey value) {
            this.key = value;
            return this;
        }

        /** The sweeper's jar, when it is not on the app's class path. */
        public Builder sweeperCode(SweeperCode value) {
            this.sweeperCode = value;
            return this;
        }

        /**
         * The sweeper function's architecture (default arm64: its jar runs on either, and Lambda's price per GB-second
         * is about 20 % lower on arm64).
         */
        public Builder architecture(Architecture value) {
            this.architecture = Objects.requireNonNull(value, "architecture");
            return this;
        }

        /** How long a dead letter stays in quarantine before it is archived (default 7 days). */
        public Builder quarantineRetention(Duration value) {
            this.quarantineRetention = Objects.requireNonNull(value, "quarantineRetention");
            return this;
        }

        /** The sweeper's schedule (default {@code rate(5 minutes)}). */
        public Builder sweepRate(String value) {
            this.sweepRate = Objects.requireNonNull(value, "sweepRate");
            return this;
        }

        /** The pace of replays per lane (default {@link ReplayPace#DEFAULT}). */
        public Builder replayPace(ReplayPace value) {
            this.replayPace = Objects.requireNonNull(value, "replayPace");
            return this;
        }

        /** Days before archived dead letters expire (default 365; after the 30-day move to Glacier IR). */
        public Builder archiveExpiryDays(int value) {
            this.archiveExpiryDays = value;
            return this;
        }

        /**
         * Days a tombstone (a dead letter archived to S3) stays in the quarantine ledger before DynamoDB's TTL deletes
         * it (default: {@link #archiveExpiryDays}, so it goes when its archive object goes); 1 to the archive's expiry.
         */
        public Builder tombstoneExpiryDays(int value) {
            this.tombstoneExpiryDays = value;
            return this;
        }

        /** DynamoDB deletion protection on the tables (default on: no one can delete them until it is turned off). */
        public Builder deletionProtection(boolean value) {
            this.deletionProtection = value;
            return this;
        }

        /**
         * Adds {@link Monitoring}: an encrypted alarm topic; age, depth and arrival alarms on every consumer's queue
         * and dead-letter queue and on the sweeper schedule's; each consumer breaker's long-open alarm; the sweeper's
         * alarms; the dashboard {@code <prefix>-redrive}. Alarms fire at {@code thresholds}
         * ({@link AlarmThresholds#DEFAULT} for the defaults). Without it, none is made.
         */
        public Builder monitoring(AlarmThresholds thresholds) {
            this.alarms = Objects.requireNonNull(thresholds, "thresholds");
            return this;
        }

        /** The platform; refused without a consumer. */
        public RedrivePlatform build() {
            if (consumers.isEmpty()) {
                throw new IllegalArgumentException("a Redrive platform without consumers has nothing to sweep: add one"
                        + " with consumer(name, queue, function, contract)");
            }
            if (tombstoneExpiryDays != null && (tombstoneExpiryDays < 1 || tombstoneExpiryDays > archiveExpiryDays)) {
                throw new IllegalArgumentException("tombstoneExpiryDays must be 1 to the archive's expiry ("
                        + archiveExpiryDays + " days): a tombstone kept longer points at an object already gone, was "
                        + tombstoneExpiryDays);
            }
            return new RedrivePlatform(scope, id, this);
        }

        private static String toPascal(String name) {
            StringBuilder out = new StringBuilder();
            for (String part : name.split("-")) {
                if (!part.isEmpty()) {
                    out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
                }
            }
            return out.toString();
        }
    }
}
