package dev.redrive.core.sweeper;

import java.time.Duration;
import java.util.Objects;

/**
 * How a sweep behaves.
 *
 * @param retention         how long a dead letter stays in the active ledger before it is archived
 * @param maxArrivalsPerRun the most dead letters quarantined per queue per run (the rest wait for the next run)
 * @param inlineBodyLimit   payloads longer than this many characters are stored aside (S3), not in the ledger item
 * @param archiveBatch      the most records archived per state per run
 * @param archiveObjectChars the most payload characters one archive object holds: a run writes as many objects as
 *     that takes, so the payloads it holds in memory (and the object it compresses) stay bounded whatever the batch:
 *     1,000 records of up to 1 MiB each would not fit a 256 MB function
 */
public record SweeperSettings(
        Duration retention, int maxArrivalsPerRun, int inlineBodyLimit, int archiveBatch, long archiveObjectChars) {

    /** 8 Mi characters of payload per archive object by default. */
    public static final long DEFAULT_ARCHIVE_OBJECT_CHARS = 8L * 1024 * 1024;

    public static final SweeperSettings DEFAULT = new SweeperSettings(Duration.ofDays(7), 2_000, 64 * 1024, 1_000);

    /** Settings with the default bound on an archive object's payloads. */
    public SweeperSettings(Duration retention, int maxArrivalsPerRun, int inlineBodyLimit, int archiveBatch) {
        this(retention, maxArrivalsPerRun, inlineBodyLimit, archiveBatch, DEFAULT_ARCHIVE_OBJECT_CHARS);
    }

    public SweeperSettings {
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("retention must be positive: " + retention);
        }
        if (maxArrivalsPerRun < 1 || inlineBodyLimit < 1 || archiveBatch < 1 || archiveObjectChars < 1) {
            throw new IllegalArgumentException("sweeper limits must be positive");
        }
    }
}
