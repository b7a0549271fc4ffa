package dev.redrive.infra;

import dev.redrive.cdk.consumer.BackoffSettings;
import dev.redrive.cdk.consumer.BreakerSettings;
import dev.redrive.cdk.consumer.ConsumerTuning;
import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.cdk.monitoring.AlarmThresholds;
import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.infra.monitoring.ProducerAlarmThresholds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awscdk.services.lambda.Architecture;
import software.constructs.Node;

/**
 * The stack's settings, read from CDK context ({@code -c key=value} on the CLI, or {@code cdk.json}).
 *
 * @param prefix               {@code prefix}: names of queues, tables, alarms (default {@code redrive})
 * @param functionsAsset       {@code functionsAsset}: the functions artifact zip, checked at synth against the runtime
 *                             and architecture; absent: a placeholder (a given path that does not exist fails)
 * @param runtime              {@code runtime}: {@code jvm} (default: what {@code ./mvnw package} builds anywhere) or
 *                             {@code native} (a GraalVM/Mandrel {@code bootstrap})
 * @param architecture         {@code architecture}: {@code x86_64} (default: what a native build on a usual machine
 *                             makes, and the JVM artifact runs on both) or {@code arm64}
 * @param sweepRate            {@code sweepRate}: the sweeper's schedule (default {@code rate(5 minutes)})
 * @param quarantineRetention  {@code sweeperRetention}: quarantine before archiving, ISO-8601 (default {@code P7D})
 * @param claimTtl             {@code claimTtl}: how long claims count; default derived from the retentions
 *                             ({@link ClaimTtl}), a shorter explicit value is refused
 * @param archiveExpiryDays    {@code archiveExpiryDays}: days archived dead letters are kept (default 365)
 * @param placeholderDirectory where the placeholder asset is written ({@code target/function-placeholder})
 * @param alarms               the platform's alarm thresholds (queues, sweeper, breakers)
 * @param producerAlarms       the checkout producer's alarm thresholds (outbox, relay, payment provider)
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
 * @param paymentProviderUrl   {@code paymentProviderUrl}: the payment provider's base URL the checkout calls; absent,
 *                             the checkout answers 503 (no provider configured)
 * @param protection           {@code deletionProtection}, {@code terminationProtection}, {@code tombstoneExpiryDays},
 *                             {@code emailRetentionDays}, {@code checkoutInvokers}: expiry, protection and who may
 *                             call the checkout ({@link Protection})
 */
public record RedriveSettings(
        String prefix,
        Optional<String> functionsAsset,
        FunctionRuntime runtime,
        Architecture architecture,
        String sweepRate,
        Duration quarantineRetention,
        Optional<Duration> claimTtl,
        int archiveExpiryDays,
        Path placeholderDirectory,
        AlarmThresholds alarms,
        ProducerAlarmThresholds producerAlarms,
        ConsumerTuning consumers,
        BreakerSettings breakers,
        ReplayPace replayPace,
        boolean allowShortRetries,
        ClaimCheckCleanup claimCheckCleanup,
        boolean checkoutProducer,
        Optional<String> paymentProviderUrl,
        Protection protection) {

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
    }

    /** Reads the settings from the context of {@code node}; every value has a default. */
    public static RedriveSettings fromContext(Node node) {
        return new RedriveSettings(
                text(node, "prefix").orElse("redrive"),
                text(node, "functionsAsset"),
                text(node, "runtime").map(FunctionRuntime::parse).orElse(FunctionRuntime.JVM),
                text(node, "architecture").map(RedriveSettings::architecture).orElse(Architecture.X86_64),
                text(node, "sweepRate").orElse("rate(5 minutes)"),
                text(node, "sweeperRetention")
                        .map(v -> duration("sweeperRetention", v))
                        .orElse(Duration.ofDays(7)),
                text(node, "claimTtl").map(v -> duration("claimTtl", v)),
                text(node, "archiveExpiryDays")
                        .map(v -> integer("archiveExpiryDays", v))
                        .orElse(365),
                text(node, "placeholderDirectory").map(Path::of).orElse(DEFAULT_PLACEHOLDER_DIRECTORY),
                AlarmThresholds.DEFAULT,
                ProducerAlarmThresholds.DEFAULT,
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
                Protection.fromContext(node));
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
