package dev.redrive.cdk.sweeper;

import dev.redrive.cdk.function.FunctionFactory;
import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.cdk.storage.Tables;
import dev.redrive.core.replay.ReplayPace;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.s3.IBucket;

/**
 * The settings and the resources of the {@link DlqSweeper}.
 *
 * @param prefix             the name prefix
 * @param runtime            native or JVM
 * @param functions          makes the function from the one artifact
 * @param key                the customer-managed key (queues, tables, archive)
 * @param tables             claims (read), quarantine and control (read/write)
 * @param archive            where quarantine past retention goes
 * @param consumers          the consumers whose dead-letter queues the sweeper drains (and whose sources it replays to),
 *                           each with the route it declares (its queues, its event contract), written to the routes
 *                           document the sweeper reads from S3
 * @param retention          how long a dead letter stays in quarantine before it is archived
 * @param scheduleExpression an EventBridge Scheduler expression: {@code rate(5 minutes)}, {@code cron(...)}
 * @param replayPace         the pace of its replays per lane (written to its environment even at the default)
 * @param tombstoneTtl       how long a tombstone (a record archived to S3) stays in the ledger after its archiving,
 *                           then DynamoDB's TTL deletes it (default {@link #DEFAULT_TOMBSTONE_TTL}, the archive's default
 *                           expiry: a tombstone goes when its object goes); at least a day
 */
public record SweeperProps(
        String prefix,
        FunctionRuntime runtime,
        FunctionFactory functions,
        IKey key,
        Tables tables,
        IBucket archive,
        List<SweptConsumer> consumers,
        Duration retention,
        String scheduleExpression,
        ReplayPace replayPace,
        Duration tombstoneTtl) {

    /** The default {@code tombstoneTtl}: 365 days, the archive's default expiry. */
    public static final Duration DEFAULT_TOMBSTONE_TTL = Duration.ofDays(365);

    /** With the default tombstone TTL ({@link #DEFAULT_TOMBSTONE_TTL}). */
    public SweeperProps(
            String prefix,
            FunctionRuntime runtime,
            FunctionFactory functions,
            IKey key,
            Tables tables,
            IBucket archive,
            List<SweptConsumer> consumers,
            Duration retention,
            String scheduleExpression,
            ReplayPace replayPace) {
        this(
                prefix,
                runtime,
                functions,
                key,
                tables,
                archive,
                consumers,
                retention,
                scheduleExpression,
                replayPace,
                DEFAULT_TOMBSTONE_TTL);
    }

    /** The sweeper's Lambda timeout: one sweep must finish well inside the 5-minute schedule. */
    public static final Duration TIMEOUT = Duration.ofMinutes(5);

    /** Checks the settings. */
    public SweeperProps {
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(replayPace, "replayPace");
        consumers = List.copyOf(consumers);
        if (consumers.isEmpty()) {
            throw new IllegalArgumentException("a sweeper without consumers has no dead-letter queue to sweep");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (SweptConsumer c : consumers) {
            if (!names.add(c.consumer().name())) {
                throw new IllegalArgumentException("two consumers of the sweeper are named "
                        + c.consumer().name() + ": a consumer's name is part of its claim keys and must be unique");
            }
        }
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("quarantine retention must be positive, was " + retention);
        }
        scheduleExpression = normalize(scheduleExpression);
        Objects.requireNonNull(tombstoneTtl, "tombstoneTtl");
        if (tombstoneTtl.compareTo(Duration.ofDays(1)) < 0) {
            throw new IllegalArgumentException("tombstone TTL must be at least a day, was " + tombstoneTtl);
        }
    }

    /** {@code 5 minutes} becomes {@code rate(5 minutes)}; {@code rate(...)}, {@code cron(...)}, {@code at(...)} stay. */
    static String normalize(String expression) {
        String trimmed =
                Objects.requireNonNull(expression, "scheduleExpression").trim();
        if (trimmed.matches("(rate|cron|at)\\(.+\\)")) {
            return trimmed;
        }
        if (trimmed.matches("\\d+ (minute|minutes|hour|hours|day|days)")) {
            return "rate(" + trimmed + ")";
        }
        throw new IllegalArgumentException("sweep rate '" + expression + "' is not a schedule expression: use e.g. "
                + "-c sweepRate='rate(5 minutes)' or -c sweepRate='cron(0/10 * * * ? *)'");
    }
}
