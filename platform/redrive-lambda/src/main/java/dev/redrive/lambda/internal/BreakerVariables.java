package dev.redrive.lambda.internal;

import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.lambda.RedriveSettings.Breaker;
import dev.redrive.lambda.RedriveSettings.Defaults;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the circuit breakers keyed by dependency: {@code REDRIVE_BREAKERS_<DEPENDENCY>_<SETTING>}, the dependency in
 * upper case with underscores for dashes ({@code email-provider} is {@code EMAIL_PROVIDER}), so the variables the
 * checkout example's IaC sets ({@code REDRIVE_BREAKERS_EMAIL_PROVIDER_CACHE_TTL}) keep their meaning. A variable under
 * {@code REDRIVE_BREAKERS_} that names no setting is refused, so a misspelt one cannot go unnoticed.
 */
public final class BreakerVariables {

    private static final String PREFIX = "REDRIVE_BREAKERS_";
    private static final String TABLE = PREFIX + "TABLE";

    /** The settings, longest first: {@code MAX_OPEN_PERIOD} ends in {@code OPEN_PERIOD}. */
    private static final List<String> SETTINGS = List.of(
            "CONSECUTIVE_FAILURES",
            "MAX_OPEN_PERIOD",
            "FAILURE_RATE",
            "OPEN_PERIOD",
            "PROBE_LEASE",
            "CACHE_TTL",
            "ENABLED",
            "WINDOW");

    private BreakerVariables() {}

    /** Every dependency some variable configures, by its name ({@code email-provider}). */
    public static Map<String, Breaker> read(Variables env) {
        Map<String, Map<String, String>> byDependency = new TreeMap<>();
        env.all()
                .forEach((name, value) -> parse(name)
                        .ifPresent(p -> byDependency
                                .computeIfAbsent(p.dependency(), d -> new HashMap<>())
                                .put(p.setting(), value)));
        Map<String, Breaker> breakers = new TreeMap<>();
        byDependency.forEach((dependency, values) -> breakers.put(dependency, read(dependency, values)));
        return breakers;
    }

    /**
     * The breaker variables of {@code environment} as the properties they stand for
     * ({@code REDRIVE_BREAKERS_EMAIL_PROVIDER_CACHE_TTL} is {@code redrive.breakers.email-provider.cache-ttl}): how a
     * configuration library that cannot tell a map key from a variable's name (SmallRye's mapping of a
     * {@code Map<String, Breaker>}) reads them the same way as {@link #read}.
     */
    public static Map<String, String> properties(Map<String, String> environment) {
        Map<String, String> properties = new TreeMap<>();
        environment.forEach((name, value) -> parse(name)
                .ifPresent(p -> properties.put(
                        "redrive.breakers." + p.dependency() + "."
                                + p.setting().toLowerCase(Locale.ROOT).replace('_', '-'),
                        value)));
        return properties;
    }

    /** A breaker variable's dependency and setting ({@code CACHE_TTL}). */
    private record Parsed(String dependency, String setting) {}

    /** What {@code name} configures, if it is a breaker variable; refused if it names no setting. */
    private static java.util.Optional<Parsed> parse(String name) {
        if (!name.startsWith(PREFIX) || name.equals(TABLE)) {
            return java.util.Optional.empty();
        }
        String rest = name.substring(PREFIX.length());
        String setting = SETTINGS.stream()
                .filter(s -> rest.endsWith("_" + s) && rest.length() > s.length() + 1)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        name + " names no breaker setting: REDRIVE_BREAKERS_<DEPENDENCY>_ ends in one of " + SETTINGS));
        return java.util.Optional.of(
                new Parsed(dependency(rest.substring(0, rest.length() - setting.length() - 1)), setting));
    }

    /**
     * The dependency a name read from a variable or a property key stands for: lower case, dashes for underscores
     * ({@code EMAIL_PROVIDER} and {@code email-provider} are {@code email-provider}).
     */
    public static String dependency(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The prefix of {@code dependency}'s variables ({@code REDRIVE_BREAKERS_EMAIL_PROVIDER_}). */
    public static String variablePrefix(String dependency) {
        return PREFIX + dependency.toUpperCase(Locale.ROOT).replace('-', '_') + "_";
    }

    /** One dependency's breaker from its settings by name ({@code CACHE_TTL}); what is absent takes the default. */
    public static Breaker read(String dependency, Map<String, String> values) {
        Map<String, String> env = new HashMap<>();
        String prefix = "redrive.breakers." + dependency + ".";
        values.forEach((setting, value) -> env.put(Variables.name(prefix + setting), value));
        Variables v = new Variables(env);
        return new Breaker(
                v.bool(prefix + "enabled", Defaults.BREAKER_ENABLED),
                new BreakerPolicy(
                        v.integer(prefix + "consecutive-failures", Defaults.BREAKER_CONSECUTIVE_FAILURES),
                        v.decimal(prefix + "failure-rate", Defaults.BREAKER_FAILURE_RATE),
                        v.integer(prefix + "window", Defaults.BREAKER_WINDOW),
                        v.duration(prefix + "open-period", Defaults.BREAKER_OPEN_PERIOD),
                        v.duration(prefix + "max-open-period", Defaults.BREAKER_MAX_OPEN_PERIOD),
                        v.duration(prefix + "probe-lease", Defaults.BREAKER_PROBE_LEASE)),
                v.duration(prefix + "cache-ttl", Defaults.BREAKER_CACHE_TTL));
    }
}
