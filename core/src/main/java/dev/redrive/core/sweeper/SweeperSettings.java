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
 */
public record SweeperSettings(Duration retention, int maxArrivalsPerRun, int inlineBodyLimit, int archiveBatch) {

    public static final SweeperSettings DEFAULT = new SweeperSettings(Duration.ofDays(7), 2_000, 64 * 1024, 1_000);

    public SweeperSettings {
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("retention must be positive: " + retention);
        }
        if (maxArrivalsPerRun < 1 || inlineBodyLimit < 1 || archiveBatch < 1) {
            throw new IllegalArgumentException("sweeper limits must be positive");
        }
    }
}
