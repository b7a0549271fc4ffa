package dev.redrive.cdk.function;

import java.time.Duration;

/** Durations as the functions read them from the environment: ISO-8601, whole days as {@code P7D}. */
public final class IsoDurations {

    private IsoDurations() {}

    /** {@code P7D} for whole days (where {@link Duration#toString()} says {@code PT168H}), else {@code PT2S} etc. */
    public static String format(Duration duration) {
        if (!duration.isZero() && !duration.isNegative() && duration.equals(Duration.ofDays(duration.toDays()))) {
            return "P" + duration.toDays() + "D";
        }
        return duration.toString();
    }
}
