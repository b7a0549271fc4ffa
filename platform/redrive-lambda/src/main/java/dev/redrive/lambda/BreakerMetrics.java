package dev.redrive.lambda;

import dev.redrive.core.breaker.BreakerListener;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.names.RedriveNames.Dimensions;
import dev.redrive.core.names.RedriveNames.Metrics;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.jboss.logging.Logger;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * What this sandbox's circuit breakers did during an invocation, exported as EMF at its end (namespace
 * {@value Metrics#NAMESPACE}, dimension {@code Dependency}): {@code BreakerCallsRefused}, {@code BreakerOpenSeconds}
 * (the longest a refusing breaker had been open, which the long-open alarm reads), {@code BreakerProbesSucceeded},
 * {@code BreakerProbesFailed}, {@code BreakerStoreFailures}; {@code BreakerTransitions} by {@code Dependency} and
 * {@code State} (the state entered). Transitions are logged as {@link BreakerTransition#logLine} (the dashboard's
 * history widget reads these lines), store failures with the exception's type only.
 * Thread-safe: the records of a batch report concurrently.
 */
public final class BreakerMetrics implements BreakerListener {

    private static final Logger LOG = Logger.getLogger("dev.redrive.breaker");

    private final EmfOutput output;
    private final Map<String, Figures> byDependency = new TreeMap<>();

    public BreakerMetrics(EmfOutput output) {
        this.output = output;
    }

    private static final class Figures {
        int refused;
        long openSeconds = -1;
        int probesSucceeded;
        int probesFailed;
        int storeFailures;
        final Map<Status, Integer> transitions = new EnumMap<>(Status.class);
    }

    @Override
    public synchronized void transitioned(String dependency, BreakerTransition transition) {
        figures(dependency).transitions.merge(transition.to(), 1, Integer::sum);
        LOG.info(transition.logLine(dependency));
    }

    @Override
    public synchronized void refused(String dependency, Duration openFor) {
        Figures f = figures(dependency);
        f.refused++;
        f.openSeconds = Math.max(f.openSeconds, openFor.toSeconds());
    }

    @Override
    public synchronized void probed(String dependency, boolean succeeded) {
        if (succeeded) {
            figures(dependency).probesSucceeded++;
        } else {
            figures(dependency).probesFailed++;
        }
    }

    @Override
    public synchronized void storeFailed(String dependency, RuntimeException failure) {
        figures(dependency).storeFailures++;
        LOG.warnf(
                "circuit breaker of %s: its store failed (%s); the call goes through (the breaker fails open)",
                dependency, failure.getClass().getSimpleName());
    }

    /** Writes what happened since the last flush, one EMF document per dimension set, and forgets it. */
    public synchronized void flush() {
        byDependency.forEach((dependency, f) -> {
            MetricsLogger plain = logger(DimensionSet.of(Dimensions.DEPENDENCY, dependency));
            boolean any = put(plain, Metrics.BREAKER_CALLS_REFUSED, f.refused);
            if (f.openSeconds >= 0) {
                plain.putMetric(Metrics.BREAKER_OPEN_SECONDS, f.openSeconds, Unit.SECONDS);
                any = true;
            }
            any |= put(plain, Metrics.BREAKER_PROBES_SUCCEEDED, f.probesSucceeded);
            any |= put(plain, Metrics.BREAKER_PROBES_FAILED, f.probesFailed);
            any |= put(plain, Metrics.BREAKER_STORE_FAILURES, f.storeFailures);
            if (any) {
                plain.flush();
            }
            f.transitions.forEach((to, n) -> {
                MetricsLogger byState =
                        logger(DimensionSet.of(Dimensions.DEPENDENCY, dependency, Dimensions.STATE, to.name()));
                byState.putMetric(Metrics.BREAKER_TRANSITIONS, n, Unit.COUNT);
                byState.flush();
            });
        });
        byDependency.clear();
    }

    private static boolean put(MetricsLogger logger, String name, int value) {
        if (value > 0) {
            logger.putMetric(name, value, Unit.COUNT);
            return true;
        }
        return false;
    }

    private Figures figures(String dependency) {
        return byDependency.computeIfAbsent(dependency, d -> new Figures());
    }

    private MetricsLogger logger(DimensionSet dimensions) {
        MetricsLogger logger = new MetricsLogger(output);
        logger.setNamespace(Metrics.NAMESPACE);
        logger.setDimensions(dimensions);
        return logger;
    }
}
