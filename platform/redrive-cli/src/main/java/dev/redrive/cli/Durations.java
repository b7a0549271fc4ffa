package dev.redrive.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as operators type them — {@code 90s}, {@code 15m}, {@code 2h}, {@code 3d}, {@code 500ms}, a bare number
 * of seconds, or ISO-8601 ({@code PT2H}, {@code P7D}), the forms the functions' configuration accepts too — and as the
 * CLI prints them ({@code 2d 4h}, {@code 3m 20s}).
 */
public final class Durations {

    private static final Pattern SHORT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?");

    private Durations() {}

    /** Parses {@code text}; a message naming the accepted forms otherwise. */
    public static Duration parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        Matcher m = SHORT.matcher(t);
        if (m.matches()) {
            double amount = Double.parseDouble(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            long millis = Math.round(amount
                    * switch (unit) {
                        case "ms" -> 1L;
                        case "s" -> 1_000L;
                        case "m" -> 60_000L;
                        case "h" -> 3_600_000L;
                        default -> 86_400_000L;
                    });
            return Duration.ofMillis(millis);
        }
        if (t.startsWith("p")) {
            try {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                // falls through to the message below
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a duration (use e.g. 90s, 15m, 2h, 3d or PT2H)");
    }

    /** An instant as text output shows it: ISO-8601 to the second ({@code 2026-11-29T22:00:00Z}). */
    public static String at(Instant instant) {
        return instant == null ? "-" : instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** A short human rendering: the two largest units ({@code 2d 4h}, {@code 3m 20s}, {@code 45s}, {@code 0s}). */
    public static String format(Duration d) {
        if (d.isNegative()) {
            return "-" + format(d.negated());
        }
        long s = d.toSeconds();
        if (s == 0 && !d.isZero()) {
            return d.toMillis() + "ms";
        }
        long days = s / 86_400;
        long hours = s % 86_400 / 3_600;
        long minutes = s % 3_600 / 60;
        long seconds = s % 60;
        if (days > 0) {
            return days + "d" + (hours > 0 ? " " + hours + "h" : "");
        }
        if (hours > 0) {
            return hours + "h" + (minutes > 0 ? " " + minutes + "m" : "");
        }
        if (minutes > 0) {
            return minutes + "m" + (seconds > 0 ? " " + seconds + "s" : "");
        }
        return seconds + "s";
    }

    /** Seconds (possibly fractional) rendered like {@link #format(Duration)}, keeping one decimal under a minute. */
    public static String seconds(double seconds) {
        if (seconds < 60 && seconds != Math.rint(seconds)) {
            return String.format(Locale.ROOT, "%.1fs", seconds);
        }
        return format(Duration.ofMillis(Math.round(seconds * 1000)));
    }
}
