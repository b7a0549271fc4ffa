package dev.redrive.quarkus.internal;

import dev.redrive.lambda.internal.BreakerVariables;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The circuit breakers' environment variables as the properties they stand for
 * ({@code REDRIVE_BREAKERS_EMAIL_PROVIDER_CACHE_TTL} is {@code redrive.breakers.email-provider.cache-ttl}), read by
 * {@code redrive-lambda}'s rule: SmallRye's environment source cannot tell where a map key ends in a variable's name,
 * so without this a breaker configured only by variables (as Redrive's CDK constructs configure it) would silently
 * take the defaults. At the environment's ordinal, so a variable overrides {@code application.properties} as usual.
 * Registered as a service ({@code META-INF/services}).
 */
public final class BreakerVariablesSource implements ConfigSource {

    /** The ordinal of SmallRye's environment source. */
    static final int ORDINAL = 300;

    private final Map<String, String> properties;

    /** From this process' environment. */
    public BreakerVariablesSource() {
        this(System.getenv());
    }

    /** From {@code environment} (tests). */
    public BreakerVariablesSource(Map<String, String> environment) {
        this.properties = Map.copyOf(BreakerVariables.properties(environment));
    }

    @Override
    public Set<String> getPropertyNames() {
        return properties.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return properties.get(propertyName);
    }

    @Override
    public String getName() {
        return "redrive-breaker-variables";
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }

    @Override
    public Map<String, String> getProperties() {
        return properties;
    }
}
