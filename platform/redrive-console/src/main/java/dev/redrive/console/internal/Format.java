package dev.redrive.console.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How the pages write times and ages, and read the ages a filter gives ({@code 90s}, {@code 15m}, {@code 2h}, {@code 3d}). */
public final class Format {

    private static final DateTimeFormatter AT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final Pattern AGE = Pattern.compile("(\\d{1,9})([smhd])");

    private Format() {}

    /** An instant in UTC to the second, or a dash. */
    public static String at(Instant at) {
        return at == null ? "–" : AT.format(at);
    }

    /** An age in its two largest units: {@code 3d 4h}, {@code 2h 5m}, {@code 45s}. */
    public static String age(Duration d) {
        if (d == null) {
            return "–";
        }
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3_600) {
            return (s / 60) + "m" + (s % 60 == 0 ? "" : " " + s % 60 + "s");
        }
        if (s < 86_400) {
            return (s / 3_600) + "h" + (s % 3_600 / 60 == 0 ? "" : " " + s % 3_600 / 60 + "m");
        }
        return (s / 86_400) + "d" + (s % 86_400 / 3_600 == 0 ? "" : " " + s % 86_400 / 3_600 + "h");
    }

    /** An age as a filter writes it, e.g. {@code 2h}. */
    public static Duration parseAge(String text) {
        Matcher m = AGE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("an age is a number and a unit (90s, 15m, 2h, 3d), not '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }
}
