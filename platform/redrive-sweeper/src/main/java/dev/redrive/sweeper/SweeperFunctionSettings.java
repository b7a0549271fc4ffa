package dev.redrive.sweeper;

import dev.redrive.lambda.RedriveSettings;
import dev.redrive.lambda.internal.Variables;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The sweeper function's own settings, each an environment variable named after its property as
 * {@code RedriveSettings} names the consumers' ({@code redrive.sweeper.quarantine-table} is
 * {@code REDRIVE_SWEEPER_QUARANTINE_TABLE}); the CDK sweeper construct sets them. {@link Defaults} holds each default
 * once, for this reader and a framework's mapping alike.
 *
 * @param routes                   where the routes document is ({@code REDRIVE_ROUTES}): {@code s3://bucket/key}, a
 *                                 file path, or the JSON; empty: the old queues-only {@link #legacyRoutes()}
 * @param legacyRoutes             {@code REDRIVE_SWEEPER_ROUTES}: a JSON array of queues only, whose replays are refused
 * @param quarantineTable          the quarantine ledger table
 * @param controlTable             sweeper leases, maintenance windows, replay statistics
 * @param archiveBucket            expired dead letters, and payloads too large for a ledger item
 * @param archiveKmsKeyId          the KMS key of archive objects; the bucket's default when empty
 * @param retention                how long a dead letter stays in the active ledger before it is archived
 * @param maxArrivalsPerRun        the most dead letters quarantined per queue per run
 * @param inlineBodyLimit          payloads longer than this (characters) go to the archive bucket, not the ledger item
 * @param archiveBatch             the most records archived per state per run
 * @param archiveObjectChars       the most payload characters one archive object holds
 * @param deadlineMargin           time kept back from the invocation's deadline: no new batch starts after it
 * @param receiveVisibilitySeconds how long a received dead letter stays invisible while it is quarantined
 * @param replays                  the pace of replays per lane
 * @param tombstoneTtl             {@code REDRIVE_SWEEPER_TOMBSTONE_TTL}: how long a tombstone stays in the ledger after
 *                                 its archiving ({@code expiresAt}, the table's TTL); empty: tombstones never expire
 */
public record SweeperFunctionSettings(
        Optional<String> routes,
        String legacyRoutes,
        String quarantineTable,
        String controlTable,
        String archiveBucket,
        Optional<String> archiveKmsKeyId,
        Duration retention,
        int maxArrivalsPerRun,
        int inlineBodyLimit,
        int archiveBatch,
        long archiveObjectChars,
        Duration deadlineMargin,
        int receiveVisibilitySeconds,
        Replays replays,
        Optional<Duration> tombstoneTtl) {

    /** Without a tombstone TTL: tombstones never expire. */
    public SweeperFunctionSettings(
            Optional<String> routes,
            String legacyRoutes,
            String quarantineTable,
            String controlTable,
            String archiveBucket,
            Optional<String> archiveKmsKeyId,
            Duration retention,
            int maxArrivalsPerRun,
            int inlineBodyLimit,
            int archiveBatch,
            long archiveObjectChars,
            Duration deadlineMargin,
            int receiveVisibilitySeconds,
            Replays replays) {
        this(
                routes,
                legacyRoutes,
                quarantineTable,
                controlTable,
                archiveBucket,
                archiveKmsKeyId,
                retention,
                maxArrivalsPerRun,
                inlineBodyLimit,
                archiveBatch,
                archiveObjectChars,
                deadlineMargin,
                receiveVisibilitySeconds,
                replays,
                Optional.empty());
    }

    public SweeperFunctionSettings {
        Objects.requireNonNull(tombstoneTtl, "tombstoneTtl");
        tombstoneTtl.ifPresent(ttl -> {
            if (ttl.isNegative() || ttl.isZero()) {
                throw new IllegalArgumentException("REDRIVE_SWEEPER_TOMBSTONE_TTL must be positive, was " + ttl);
            }
        });
        Objects.requireNonNull(routes, "routes");
        Objects.requireNonNull(legacyRoutes, "legacyRoutes");
        Objects.requireNonNull(quarantineTable, "quarantineTable");
        Objects.requireNonNull(controlTable, "controlTable");
        Objects.requireNonNull(archiveBucket, "archiveBucket");
        Objects.requireNonNull(archiveKmsKeyId, "archiveKmsKeyId");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(deadlineMargin, "deadlineMargin");
        Objects.requireNonNull(replays, "replays");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("REDRIVE_SWEEPER_RETENTION must be positive, was " + retention);
        }
        positive("REDRIVE_SWEEPER_MAX_ARRIVALS_PER_RUN", maxArrivalsPerRun);
        positive("REDRIVE_SWEEPER_INLINE_BODY_LIMIT", inlineBodyLimit);
        positive("REDRIVE_SWEEPER_ARCHIVE_BATCH", archiveBatch);
        positive("REDRIVE_SWEEPER_ARCHIVE_OBJECT_CHARS", archiveObjectChars);
        if (receiveVisibilitySeconds < 0 || receiveVisibilitySeconds > 43_200) {
            throw new IllegalArgumentException("REDRIVE_SWEEPER_RECEIVE_VISIBILITY_SECONDS must be 0 to 43200 (SQS's "
                    + "12 hours), was " + receiveVisibilitySeconds);
        }
    }

    private static void positive(String variable, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(variable + " must be above 0, was " + value);
        }
    }

    /**
     * The pace of replays, the sweeper's and a person's alike, per lane (see {@code ReplayPace}).
     *
     * @param ratePerSecond replays per second reaching a lane {@code laneRates} does not name
     * @param laneRates     {@code lane=perSecond} pairs, comma-separated ({@code mail-provider=5}); empty: none
     * @param horizon       how far ahead a replay may be booked (at most SQS's 15-minute delay)
     */
    public record Replays(double ratePerSecond, String laneRates, Duration horizon) {
        public Replays {
            Objects.requireNonNull(laneRates, "laneRates");
            Objects.requireNonNull(horizon, "horizon");
        }
    }

    /** The settings of this process' environment. */
    public static SweeperFunctionSettings fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /** The settings {@code environment} holds; every variable it lacks takes its default. */
    public static SweeperFunctionSettings fromEnvironment(Map<String, String> environment) {
        Variables env = new Variables(environment);
        return new SweeperFunctionSettings(
                env.optional("redrive.routes"),
                env.string("redrive.sweeper.routes", Defaults.LEGACY_ROUTES),
                env.string("redrive.sweeper.quarantine-table", Defaults.QUARANTINE_TABLE),
                env.string("redrive.sweeper.control-table", Defaults.CONTROL_TABLE),
                env.string("redrive.sweeper.archive-bucket", Defaults.ARCHIVE_BUCKET),
                env.optional("redrive.sweeper.archive-kms-key-id"),
                env.duration("redrive.sweeper.retention", Defaults.RETENTION),
                env.integer("redrive.sweeper.max-arrivals-per-run", Defaults.MAX_ARRIVALS_PER_RUN),
                env.integer("redrive.sweeper.inline-body-limit", Defaults.INLINE_BODY_LIMIT),
                env.integer("redrive.sweeper.archive-batch", Defaults.ARCHIVE_BATCH),
                env.longInteger("redrive.sweeper.archive-object-chars", Defaults.ARCHIVE_OBJECT_CHARS),
                env.duration("redrive.sweeper.deadline-margin", Defaults.DEADLINE_MARGIN),
                env.integer("redrive.sweeper.receive-visibility-seconds", Defaults.RECEIVE_VISIBILITY_SECONDS),
                new Replays(
                        env.decimal("redrive.replays.rate-per-second", Defaults.REPLAYS_RATE_PER_SECOND),
                        env.string("redrive.replays.lane-rates", ""),
                        env.duration("redrive.replays.horizon", Defaults.REPLAYS_HORIZON)),
                env.optional("redrive.sweeper.tombstone-ttl")
                        .map(v -> env.duration("redrive.sweeper.tombstone-ttl", v)));
    }

    /** The default of every setting, as the text its variable would hold. */
    public static final class Defaults {
        public static final String LEGACY_ROUTES = "[]";
        public static final String QUARANTINE_TABLE = "redrive-quarantine";
        public static final String CONTROL_TABLE = "redrive-control";
        public static final String ARCHIVE_BUCKET = "redrive-archive";
        public static final String RETENTION = RedriveSettings.Defaults.SWEEPER_RETENTION; // the claim TTL covers it
        public static final String MAX_ARRIVALS_PER_RUN = "2000";
        public static final String INLINE_BODY_LIMIT = "65536";
        public static final String ARCHIVE_BATCH = "1000";
        public static final String ARCHIVE_OBJECT_CHARS = "8388608";
        public static final String DEADLINE_MARGIN = "30s";
        public static final String RECEIVE_VISIBILITY_SECONDS = "120";
        public static final String REPLAYS_RATE_PER_SECOND = "10";
        public static final String REPLAYS_HORIZON = "15m";

        private Defaults() {}
    }
}
