package dev.redrive.lambda.internal;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads typed settings from environment variables named after their property: {@code redrive.claims.record-ttl} is
 * {@code REDRIVE_CLAIMS_RECORD_TTL} (upper case, dots and dashes as underscores), the rule Quarkus and MicroProfile
 * Config apply, so one variable means the same under both. Values are read the way Quarkus reads them too: a duration
 * is a number of seconds ({@code 30}), milliseconds ({@code 50ms}), days ({@code 35d}), a number with a unit
 * ({@code 2s}, {@code 15m}, {@code 1h}) or ISO-8601 ({@code P35D}, {@code PT5S}); a list is comma-separated.
 * A value that does not parse is refused with the variable's name and the form it needs.
 */
public final class Variables {

    private static final Pattern SECONDS = Pattern.compile("-?\\d+");
    private static final Pattern MILLIS = Pattern.compile("-?\\d+ms", Pattern.CASE_INSENSITIVE);
    private static final Pattern DAYS = Pattern.compile("-?\\d+d", Pattern.CASE_INSENSITIVE);

    private final Map<String, String> environment;

    /** Reads {@code environment} (the process' environment, or a map of it in tests). */
    public Variables(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /** The variable of {@code property}: {@code redrive.claims.table} is {@code REDRIVE_CLAIMS_TABLE}. */
    public static String name(String property) {
        return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** Every variable set, by name. */
    public Map<String, String> all() {
        return environment;
    }

    /** The value of {@code property}, empty when unset or blank. */
    public Optional<String> optional(String property) {
        return Optional.ofNullable(environment.get(name(property)))
                .map(String::strip)
                .filter(v -> !v.isEmpty());
    }

    public String string(String property, String defaultValue) {
        return optional(property).orElse(defaultValue);
    }

    public Duration duration(String property, String defaultValue) {
        return parseDuration(name(property), string(property, defaultValue));
    }

    public int integer(String property, String defaultValue) {
        String value = string(property, defaultValue);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw invalid(name(property), value, "a whole number", e);
        }
    }

    public long longInteger(String property, String defaultValue) {
        String value = string(property, defaultValue);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw invalid(name(property), value, "a whole number", e);
        }
    }

    public Optional<Integer> optionalInteger(String property) {
        return optional(property).map(value -> {
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw invalid(name(property), value, "a whole number", e);
            }
        });
    }

    public double decimal(String property, String defaultValue) {
        String value = string(property, defaultValue);
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw invalid(name(property), value, "a number", e);
        }
    }

    public boolean bool(String property, String defaultValue) {
        return parseBool(name(property), string(property, defaultValue));
    }

    /** A comma-separated list, blanks left out; empty when unset. */
    public List<String> list(String property) {
        return optional(property)
                .map(v -> Arrays.stream(v.split(","))
                        .map(String::strip)
                        .filter(s -> !s.isEmpty())
                        .toList())
                .orElse(List.of());
    }

    /** An enum constant, in any case, dashes for underscores ({@code after-apply} is {@code AFTER_APPLY}). */
    public <E extends Enum<E>> E constant(String property, Class<E> type, String defaultValue) {
        String value = string(property, defaultValue);
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw invalid(name(property), value, "one of " + Arrays.toString(type.getEnumConstants()), e);
        }
    }

    /** Reads a duration as Quarkus does (see the class comment); {@code variable} names it in the error. */
    public static Duration parseDuration(String variable, String value) {
        String v = value.strip();
        try {
            if (SECONDS.matcher(v).matches()) {
                return Duration.ofSeconds(Long.parseLong(v));
            }
            if (MILLIS.matcher(v).matches()) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            if (DAYS.matcher(v).matches()) {
                return Duration.ofDays(Long.parseLong(v.substring(0, v.length() - 1)));
            }
            if (v.startsWith("P") || v.startsWith("p") || v.startsWith("-P") || v.startsWith("-p")) {
                return Duration.parse(v);
            }
            return Duration.parse("PT" + v);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw invalid(variable, value, "a duration (30s, 50ms, 15m, 35d, P35D, PT5S)", e);
        }
    }

    /** {@code true} or {@code false}, in any case; anything else is refused. */
    public static boolean parseBool(String variable, String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.equals("true") || v.equals("false")) {
            return Boolean.parseBoolean(v);
        }
        throw invalid(variable, value, "true or false", null);
    }

    private static IllegalArgumentException invalid(String variable, String value, String expected, Exception cause) {
        return new IllegalArgumentException(
                variable + " is \"" + value + "\", which is not " + expected + "; fix the function's environment",
                cause);
    }
}
