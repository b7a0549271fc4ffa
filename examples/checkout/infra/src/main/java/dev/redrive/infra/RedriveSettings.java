package dev.redrive.infra;

import dev.redrive.cdk.consumer.BackoffSettings;
import dev.redrive.cdk.consumer.BreakerSettings;
import dev.redrive.cdk.consumer.ConsumerScaling;
import dev.redrive.cdk.consumer.ConsumerTuning;
import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.cdk.monitoring.AlarmNotifications;
import dev.redrive.cdk.monitoring.AlarmThresholds;
import dev.redrive.cdk.monitoring.MonitoringProps;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.infra.checkout.IndexShardSettings;
import dev.redrive.infra.checkout.OrderRetentionSettings;
import dev.redrive.infra.monitoring.ProducerAlarmThresholds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awscdk.services.lambda.Architecture;
import software.constructs.Node;

/**
 * The stack's settings, read from CDK context ({@code -c key=value} on the CLI, or {@code cdk.json}).
 *
 * @param prefix               {@code prefix}: names of queues, tables, alarms (default {@code redrive})
 * @param functionsAsset       {@code functionsAsset}: the functions artifact zip, checked at synth against the runtime
 *                             and architecture; absent: refused unless {@code placeholderAsset} (a given path
 *                             that does not exist fails)
 * @param placeholderAsset     {@code placeholderAsset=true}: without {@code functionsAsset}, the functions get a
 *                             placeholder asset that fails every invocation (the build's own synth and tests);
 *                             default {@code false}: the synth refuses to go on without an artifact
 * @param runtime              {@code runtime}: {@code jvm} (default: what {@code ./mvnw package} builds anywhere) or
 *                             {@code native} (a GraalVM/Mandrel {@code bootstrap})
 * @param architecture         {@code architecture}: {@code arm64} or {@code x86_64}. Default: {@code arm64} for the JVM
 *                             artifact (it runs on both, and Lambda's GB-second costs about 20 % less on arm64),
 *                             {@code x86_64} for the native one (what a native build on a usual machine makes)
 * @param sweepRate            {@code sweepRate}: the sweeper's schedule (default {@code rate(5 minutes)})
 * @param quarantineRetention  {@code sweeperRetention}: quarantine before archiving, ISO-8601 (default {@code P7D})
 * @param claimTtl             {@code claimTtl}: how long claims count; default derived from the retentions
 *                             ({@link ClaimTtl}), a shorter explicit value is refused
 * @param archiveExpiryDays    {@code archiveExpiryDays}: days archived dead letters are kept (default 365)
 * @param placeholderDirectory where the placeholder asset is written ({@code target/function-placeholder})
 * @param alarms               the platform's alarm thresholds, each {@code -c alarm<Setting>} ({@code
 *                             alarmSourceOldestMessageAge=PT15M}, ...; see the README): {@link AlarmThresholds}
 * @param producerAlarms       the checkout producer's alarm thresholds ({@code alarmOldestUnpublishedOutbox},
 *                             {@code alarmRelayIteratorAge}, {@code alarmPaymentProviderUnavailable})
 * @param alarmNotifications   {@code alarmEmails} and {@code alarmHttpsEndpoints} (comma-separated): subscribed to the
 *                             alarm topic (default: nobody)
 * @param runbook              {@code runbookUrl}: the runbook the alarms' descriptions link to (default {@value
 *                             dev.redrive.cdk.monitoring.MonitoringProps#DEFAULT_RUNBOOK})
 * @param consumers            {@code consumerTimeout}, {@code maxReceiveCount}, {@code backoffBase},
 *                             {@code backoffMultiplier}, {@code backoffMaxDelay}, {@code minimumRetryWindow}: the
 *                             consumers' tuning
 * @param breakers             {@code breakerOpenPeriod}, {@code breakerMaxOpenPeriod}, {@code breakerProbeLease}: the
 *                             consumers' circuit breakers' open period, its cap and the probe's lease (default: the
 *                             functions' own, 30 s, 10 min and 30 s)
 * @param replayPace           {@code replayRate} (replays per second per lane), {@code replayLaneRates}
 *                             ({@code lane=perSecond,...}) and {@code replayHorizon}: the pace of replays, the
 *                             sweeper's and a person's (default: {@link ReplayPace#DEFAULT}, 10 a second, 15 min)
 * @param claimCheckCleanup    {@code claimCheckCleanup=LIFECYCLE} (the default: claim-check payloads expire by the
 *                             bucket's lifecycle rule) or {@code AFTER_APPLY} (the consumers delete a payload once its
 *                             effect is applied, and are granted {@code s3:DeleteObject} for it)
 * @param allowShortRetries    {@code allowShortRetries=true}: a demo stack; fewer than 5 receives or a retry window
 *                             below the minimum ({@link dev.redrive.cdk.consumer.RetryWindow}) only warn
 * @param checkoutProducer     {@code checkoutProducer} (default {@code true}): the producer side of the checkout
 *                             example, {@code POST /orders} with its orders table, outbox relay, outbox sweep and
 *                             reconciliation ({@link dev.redrive.infra.checkout.CheckoutProducer}); {@code false}
 *                             leaves the consumers fed by whatever sends to their queues
 * @param paymentProviderUrl   {@code paymentProviderUrl}: the payment provider's base URL the checkout calls;
 *                             required with {@code checkoutProducer} (the synth refuses the checkout without it: every
 *                             order would answer 503)
 * @param consumerScaling      per consumer name: {@code batchSize}, {@code maxBatchingWindow} (ISO-8601),
 *                             {@code maxConcurrency} and {@code reservedConcurrency}, each for every consumer, or for
 *                             one as {@code <consumer>.<setting>} (which wins). Defaults: 10, {@code PT0S}, 5, and a
 *                             reserved concurrency equal to the consumer's maxConcurrency ({@code none}: no reservation)
 * @param checkoutReservedConcurrency {@code checkoutReservedConcurrency}: the concurrency reserved for the checkout
 *                             behind the Function URL, which is also its ceiling, so a burst of orders cannot starve the
 *                             consumers (default 50; {@code none}: no reservation, no ceiling)
 * @param orderIndexShards     {@code orderIndexShards} (default 8, 1 to 64) and {@code orderIndexShardsDraining}: the
 *                             shards of the orders table's sparse indexes ({@link IndexShardSettings})
 * @param protection           {@code deletionProtection}, {@code terminationProtection}, {@code tombstoneExpiryDays},
 *                             {@code emailRetentionDays}, {@code checkoutInvokers}: expiry, protection and who may
 *                             call the checkout ({@link Protection})
 * @param orderRetention       {@code checkoutAttemptRetention} (default {@code P30D}) and {@code outboxEventRetention}
 *                             (default {@code P7D}): how long the orders table keeps finished attempts and published
 *                             outbox events ({@link OrderRetentionSettings})
 */
public record RedriveSettings(
        String prefix,
        Optional<String> functionsAsset,
        boolean placeholderAsset,
        FunctionRuntime runtime,
        Architecture architecture,
        String sweepRate,
        Duration quarantineRetention,
        Optional<Duration> claimTtl,
        int archiveExpiryDays,
        Path placeholderDirectory,
        AlarmThresholds alarms,
        ProducerAlarmThresholds producerAlarms,
        AlarmNotifications alarmNotifications,
        String runbook,
        ConsumerTuning consumers,
        BreakerSettings breakers,
        ReplayPace replayPace,
        boolean allowShortRetries,
        ClaimCheckCleanup claimCheckCleanup,
        boolean checkoutProducer,
        Optional<String> paymentProviderUrl,
        Map<String, ConsumerScaling> consumerScaling,
        Optional<Integer> checkoutReservedConcurrency,
        IndexShardSettings orderIndexShards,
        Protection protection,
        OrderRetentionSettings orderRetention) {

    /**
     * Expiry, protection and access.
     *
     * @param deletionProtection    {@code deletionProtection} (default {@code true}): DynamoDB deletion protection on
     *                              every table
     * @param terminationProtection {@code terminationProtection} (default {@code true}): the stack's termination
     *                              protection ({@code cdk destroy} and a delete are refused until it is turned off)
     * @param tombstoneExpiryDays   {@code tombstoneExpiryDays}: days a tombstone stays in the ledger after its
     *                              archiving (default: {@code archiveExpiryDays}; 1 to {@code archiveExpiryDays})
     * @param emailRetentionDays    {@code emailRetentionDays} (default 90): days an email stays in the email outbox
     *                              bucket; at least the claim TTL's days, or a redelivery would write one again
     * @param checkoutInvokers      {@code checkoutInvokers}: comma-separated 12-digit account ids and IAM role or user
     *                              ARNs granted {@code lambda:InvokeFunctionUrl} and {@code lambda:InvokeFunction} on
     *                              the checkout's Function URL (default: none)
     */
    public record Protection(
            boolean deletionProtection,
            boolean terminationProtection,
            Optional<Integer> tombstoneExpiryDays,
            int emailRetentionDays,
            java.util.List<String> checkoutInvokers) {

        /** The defaults: both protections on, tombstones as long as the archive, emails 90 days, no invoker. */
        public static final Protection DEFAULT = new Protection(true, true, Optional.empty(), 90, java.util.List.of());

        private static final Pattern INVOKER =
                Pattern.compile("\\d{12}|arn:aws[a-z-]*:iam::\\d{12}:(role|user)/[\\w+=,.@/-]+");

        /** Checks each value. */
        public Protection {
            checkoutInvokers = java.util.List.copyOf(checkoutInvokers);
            for (String invoker : checkoutInvokers) {
                if (!INVOKER.matcher(invoker).matches()) {
                    throw new IllegalArgumentException("-c checkoutInvokers: '" + invoker + "' is neither a 12-digit "
                            + "account id nor an IAM role or user ARN (arn:aws:iam::<account>:role/<name>)");
                }
            }
            if (emailRetentionDays < 1) {
                throw new IllegalArgumentException(
                        "-c emailRetentionDays must be at least 1, was " + emailRetentionDays);
            }
        }

        static Protection fromContext(Node node) {
            return new Protection(
                    text(node, "deletionProtection")
                            .map(v -> bool("deletionProtection", v))
                            .orElse(DEFAULT.deletionProtection()),
                    text(node, "terminationProtection")
                            .map(v -> bool("terminationProtection", v))
                            .orElse(DEFAULT.terminationProtection()),
                    text(node, "tombstoneExpiryDays").map(v -> integer("tombstoneExpiryDays", v)),
                    text(node, "emailRetentionDays")
                            .map(v -> integer("emailRetentionDays", v))
                            .orElse(DEFAULT.emailRetentionDays()),
                    text(node, "checkoutInvokers")
                            .map(v -> java.util.Arrays.stream(v.split(","))
                                    .map(String::trim)
                                    .filter(x -> !x.isEmpty())
                                    .toList())
                            .orElse(DEFAULT.checkoutInvokers()));
        }
    }

    /** The default placeholder directory, relative to the working directory (the infra module). */
    public static final Path DEFAULT_PLACEHOLDER_DIRECTORY = Path.of("target", "function-placeholder");

    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9-]{0,19}");

    /** The checkout's reserved concurrency when the context sets none. */
    public static final int DEFAULT_CHECKOUT_RESERVED_CONCURRENCY = 50;

    /** The consumers whose scaling the context sets, by name. */
    static final List<String> CONSUMERS = List.of(CheckoutNames.CONFIRMATION_EMAIL, CheckoutNames.REVENUE_ANALYTICS);

    /** Checks the prefix; it is part of every explicit name. */
    public RedriveSettings {
        protection.tombstoneExpiryDays().ifPresent(days -> {
            if (days < 1 || days > archiveExpiryDays) {
                throw new IllegalArgumentException(
                        "-c tombstoneExpiryDays=" + days + " must be 1 to archiveExpiryDays (" + archiveExpiryDays
                                + "): a tombstone kept longer points at an archive object already gone");
            }
        });
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("prefix '" + prefix + "' must be 1 to 20 lower-case letters, digits "
                    + "and dashes, starting with a letter (-c prefix=...)");
        }
        consumerScaling = Map.copyOf(consumerScaling);
    }

    /** Reads the settings from the context of {@code node}; every value has a default. */
    public static RedriveSettings fromContext(Node node) {
        FunctionRuntime runtime =
                text(node, "runtime").map(FunctionRuntime::parse).orElse(FunctionRuntime.JVM);
        return new RedriveSettings(
                text(node, "prefix").orElse("redrive"),
                text(node, "functionsAsset"),
                text(node, "placeholderAsset")
                        .map(v -> bool("placeholderAsset", v))
                        .orElse(false),
                runtime,
                text(node, "architecture")
                        .map(RedriveSettings::architecture)
                        .orElse(runtime == FunctionRuntime.JVM ? Architecture.ARM_64 : Architecture.X86_64),
                text(node, "sweepRate").orElse("rate(5 minutes)"),
                text(node, "sweeperRetention")
                        .map(v -> duration("sweeperRetention", v))
                        .orElse(Duration.ofDays(7)),
                text(node, "claimTtl").map(v -> duration("claimTtl", v)),
                text(node, "archiveExpiryDays")
                        .map(v -> integer("archiveExpiryDays", v))
                        .orElse(365),
                text(node, "placeholderDirectory").map(Path::of).orElse(DEFAULT_PLACEHOLDER_DIRECTORY),
                alarmThresholds(node),
                producerAlarmThresholds(node),
                AlarmNotifications.subscribers(list(node, "alarmEmails"), list(node, "alarmHttpsEndpoints")),
                text(node, "runbookUrl").orElse(MonitoringProps.DEFAULT_RUNBOOK),
                consumerTuning(node),
                new BreakerSettings(
                        text(node, "breakerOpenPeriod")
                                .map(v -> duration("breakerOpenPeriod", v))
                                .orElse(BreakerSettings.DEFAULT.openPeriod()),
                        text(node, "breakerMaxOpenPeriod")
                                .map(v -> duration("breakerMaxOpenPeriod", v))
                                .orElse(BreakerSettings.DEFAULT.maxOpenPeriod()),
                        text(node, "breakerProbeLease")
                                .map(v -> duration("breakerProbeLease", v))
                                .orElse(BreakerSettings.DEFAULT.probeLease()),
                        text(node, "breakerEnabled")
                                .map(v -> bool("breakerEnabled", v))
                                .orElse(BreakerSettings.DEFAULT.enabled())),
                replayPace(node),
                text(node, "allowShortRetries")
                        .map(v -> bool("allowShortRetries", v))
                        .orElse(false),
                text(node, "claimCheckCleanup")
                        .map(RedriveSettings::claimCheckCleanup)
                        .orElse(ClaimCheckCleanup.LIFECYCLE),
                text(node, "checkoutProducer")
                        .map(v -> bool("checkoutProducer", v))
                        .orElse(true),
                text(node, "paymentProviderUrl").map(RedriveSettings::paymentProviderUrl),
                consumerScaling(node),
                text(node, "checkoutReservedConcurrency")
                        .map(v -> reservation("checkoutReservedConcurrency", v))
                        .orElse(Optional.of(DEFAULT_CHECKOUT_RESERVED_CONCURRENCY)),
                new IndexShardSettings(
                        text(node, "orderIndexShards")
                                .map(v -> integer("orderIndexShards", v))
                                .orElse(IndexShardSettings.DEFAULT.count()),
                        text(node, "orderIndexShardsDraining").map(v -> integer("orderIndexShardsDraining", v))),
                Protection.fromContext(node),
                new OrderRetentionSettings(
                        text(node, "checkoutAttemptRetention")
                                .map(v -> duration("checkoutAttemptRetention", v))
                                .orElse(OrderRetentionSettings.DEFAULT.finishedAttempts()),
                        text(node, "outboxEventRetention")
                                .map(v -> duration("outboxEventRetention", v))
                                .orElse(OrderRetentionSettings.DEFAULT.publishedEvents())));
    }

    /**
     * Each consumer's scaling: {@code -c <consumer>.<setting>}, else {@code -c <setting>}, else the default; the
     * reserved concurrency defaults to the consumer's maxConcurrency. The values are checked by the consumer's props.
     */
    private static Map<String, ConsumerScaling> consumerScaling(Node node) {
        Map<String, ConsumerScaling> out = new LinkedHashMap<>();
        ConsumerScaling d = ConsumerScaling.DEFAULT;
        for (String consumer : CONSUMERS) {
            int maxConcurrency = scalingText(node, consumer, "maxConcurrency")
                    .map(v -> integer(consumer + ".maxConcurrency", v))
                    .orElse(d.maxConcurrency());
            out.put(
                    consumer,
                    new ConsumerScaling(
                            scalingText(node, consumer, "batchSize")
                                    .map(v -> integer(consumer + ".batchSize", v))
                                    .orElse(d.batchSize()),
                            scalingText(node, consumer, "maxBatchingWindow")
                                    .map(v -> duration(consumer + ".maxBatchingWindow", v))
                                    .orElse(d.maxBatchingWindow()),
                            maxConcurrency,
                            scalingText(node, consumer, "reservedConcurrency")
                                    .map(v -> reservation(consumer + ".reservedConcurrency", v))
                                    .orElse(Optional.of(maxConcurrency))));
        }
        return out;
    }

    private static Optional<String> scalingText(Node node, String consumer, String setting) {
        return text(node, consumer + "." + setting).or(() -> text(node, setting));
    }

    /** A reserved concurrency: a whole number, or {@code none}. */
    private static Optional<Integer> reservation(String key, String value) {
        if (value.equalsIgnoreCase("none")) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "-c " + key + "=" + value + " is neither a whole number nor none (no reservation)", e);
        }
    }

    /** Every platform alarm threshold from {@code -c alarm<Setting>}, the default where absent. */
    private static AlarmThresholds alarmThresholds(Node node) {
        AlarmThresholds d = AlarmThresholds.DEFAULT;
        try {
            return new AlarmThresholds(
                    alarmDuration(node, "SourceOldestMessageAge", d.sourceOldestMessageAge()),
                    alarmInt(node, "SourceVisibleMessages", d.sourceVisibleMessages()),
                    alarmDuration(node, "DeadLetterOldestMessageAge", d.deadLetterOldestMessageAge()),
                    alarmInt(node, "DeadLetterVisibleMessages", d.deadLetterVisibleMessages()),
                    alarmDuration(node, "OldestUnresolvedQuarantine", d.oldestUnresolvedQuarantine()),
                    alarmNumber(node, "ReplaySuccessRate", d.replaySuccessRate()),
                    alarmDuration(node, "ReplaySuccessWindow", d.replaySuccessWindow()),
                    alarmDuration(node, "BreakerOpen", d.breakerOpen()),
                    alarmDuration(node, "Period", d.period()),
                    alarmInt(node, "EvaluationPeriods", d.evaluationPeriods()),
                    alarmNumber(node, "DeadLetterArrivalBand", d.deadLetterArrivalBand()),
                    alarmInt(node, "FunctionErrors", d.functionErrors()),
                    alarmInt(node, "FunctionThrottles", d.functionThrottles()),
                    alarmInt(node, "TableThrottles", d.tableThrottles()),
                    alarmInt(node, "AccountConcurrency", d.accountConcurrency()),
                    alarmDuration(node, "SweeperHeartbeat", d.sweeperHeartbeat()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (-c alarm<Setting>=...)", e);
        }
    }

    private static ProducerAlarmThresholds producerAlarmThresholds(Node node) {
        ProducerAlarmThresholds d = ProducerAlarmThresholds.DEFAULT;
        return new ProducerAlarmThresholds(
                alarmDuration(node, "OldestUnpublishedOutbox", d.oldestUnpublishedOutbox()),
                alarmDuration(node, "RelayIteratorAge", d.relayIteratorAge()),
                alarmInt(node, "PaymentProviderUnavailable", d.paymentProviderUnavailable()));
    }

    private static Duration alarmDuration(Node node, String setting, Duration fallback) {
        return text(node, "alarm" + setting)
                .map(v -> duration("alarm" + setting, v))
                .orElse(fallback);
    }

    private static int alarmInt(Node node, String setting, int fallback) {
        return text(node, "alarm" + setting)
                .map(v -> integer("alarm" + setting, v))
                .orElse(fallback);
    }

    private static double alarmNumber(Node node, String setting, double fallback) {
        return text(node, "alarm" + setting)
                .map(v -> number("alarm" + setting, v))
                .orElse(fallback);
    }

    /** A comma-separated list; absent: empty. */
    private static List<String> list(Node node, String key) {
        return text(node, key)
                .map(v -> Arrays.stream(v.split(","))
                        .map(String::trim)
                        .filter(s -> !s.isEmpty())
                        .toList())
                .orElse(List.of());
    }

    private static String paymentProviderUrl(String value) {
        if (!value.matches("https?://[^\\s]+/")) {
            throw new IllegalArgumentException("-c paymentProviderUrl=" + value
                    + " is not an http(s) URL ending in a slash (its authorizations are <url>authorizations)");
        }
        return value;
    }

    private static ClaimCheckCleanup claimCheckCleanup(String value) {
        for (ClaimCheckCleanup c : ClaimCheckCleanup.values()) {
            if (c.name().equals(value)) {
                return c;
            }
        }
        throw new IllegalArgumentException("-c claimCheckCleanup=" + value + " is not one of "
                + java.util.Arrays.toString(ClaimCheckCleanup.values()));
    }

    private static ReplayPace replayPace(Node node) {
        ReplayPace d = ReplayPace.DEFAULT;
        try {
            return ReplayPace.of(
                    text(node, "replayRate").map(v -> number("replayRate", v)).orElse(d.perSecond()),
                    text(node, "replayLaneRates").orElse(d.laneRates()),
                    text(node, "replayHorizon")
                            .map(v -> duration("replayHorizon", v))
                            .orElse(d.horizon()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    e.getMessage() + " (-c replayRate=..., -c replayLaneRates=..., -c replayHorizon=...)", e);
        }
    }

    private static double number(String key, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-c " + key + "=" + value + " is not a number");
        }
    }

    private static ConsumerTuning consumerTuning(Node node) {
        ConsumerTuning d = ConsumerTuning.DEFAULT;
        BackoffSettings backoff = new BackoffSettings(
                text(node, "backoffBase")
                        .map(v -> duration("backoffBase", v))
                        .orElse(d.backoff().base()),
                text(node, "backoffMultiplier")
                        .map(Double::parseDouble)
                        .orElse(d.backoff().multiplier()),
                text(node, "backoffMaxDelay")
                        .map(v -> duration("backoffMaxDelay", v))
                        .orElse(d.backoff().maxDelay()));
        return new ConsumerTuning(
                text(node, "consumerTimeout")
                        .map(v -> duration("consumerTimeout", v))
                        .orElse(d.timeout()),
                text(node, "maxReceiveCount")
                        .map(v -> integer("maxReceiveCount", v))
                        .orElse(d.maxReceiveCount()),
                backoff,
                text(node, "minimumRetryWindow")
                        .map(v -> duration("minimumRetryWindow", v))
                        .orElse(d.minimumRetryWindow()));
    }

    private static Optional<String> text(Node node, String key) {
        return Optional.ofNullable(node.tryGetContext(key))
                .map(Object::toString)
                .map(String::trim)
                .filter(s -> !s.isEmpty());
    }

    private static Architecture architecture(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "arm64", "arm_64", "aarch64" -> Architecture.ARM_64;
            case "x86_64", "amd64" -> Architecture.X86_64;
            default ->
                throw new IllegalArgumentException(
                        "unknown architecture '" + value
                                + "': use -c architecture=arm64 or -c architecture=x86_64 (the native bootstrap's architecture)");
        };
    }

    private static Duration duration(String key, String value) {
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(key + " '" + value + "' is not an ISO-8601 duration such as P7D", e);
        }
    }

    private static boolean bool(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " '" + value + "' must be true or false");
        };
    }

    private static int integer(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " '" + value + "' is not a whole number", e);
        }
    }
}
