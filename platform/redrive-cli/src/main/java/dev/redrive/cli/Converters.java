package dev.redrive.cli;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters for the CLI's own argument types; a bad value is a one-line usage error. */
final class Converters {

    private Converters() {}

    /** Durations: {@code 90s}, {@code 15m}, {@code 2h}, {@code 3d}, {@code PT2H}. */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /**
     * Instants: ISO-8601 with a zone or offset ({@code 2026-11-29T22:00:00Z}, {@code 2026-11-29T23:00+01:00}), or
     * relative to now ({@code now}, {@code now+2h}, {@code now-30m}).
     */
    static final class InstantConverter implements ITypeConverter<Instant> {
        private final Clock clock;

        InstantConverter(Clock clock) {
            this.clock = clock;
        }

        @Override
        public Instant convert(String value) {
            String v = value.strip();
            String lower = v.toLowerCase(Locale.ROOT);
            try {
                Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
                if (lower.equals("now")) {
                    return now;
                }
                if (lower.startsWith("now+") || lower.startsWith("now-")) {
                    Duration d = Durations.parse(v.substring(4));
                    return lower.charAt(3) == '+' ? now.plus(d) : now.minus(d);
                }
                return OffsetDateTime.parse(v).toInstant();
            } catch (DateTimeParseException | IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not a time (use ISO-8601 with a zone, e.g. "
                        + "2026-11-29T22:00:00Z, or now, now+2h, now-30m)");
            }
        }
    }
}
