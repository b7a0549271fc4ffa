package dev.redrive.lambda;

import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.names.RedriveNames.Dimensions;
import dev.redrive.core.names.RedriveNames.Metrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * The consumer metrics: instrumented with Micrometer (counters and a timer in a plain in-memory registry), exported
 * at the end of every invocation as Embedded Metric Format on stdout, namespace {@value Metrics#NAMESPACE}, names from {@link Metrics}. Only what
 * changed during the invocation is exported. Names: {@code Processed}, {@code Duplicates}, {@code Deferred},
 * {@code TimedOut}, {@code Superseded}, {@code HeldBehindGroupHead}, {@code VisibilityNotChanged} (a retry delay the
 * queue did not take), {@code DeferredByBreaker} (refused by the dependency's open circuit breaker), {@code EffectLatency} (dimension {@code Consumer}); {@code Failures} and
 * {@code DeadLettered} (dimensions {@code Consumer}, {@code FailureClass}).
 */
public final class ConsumerMetrics {

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final EmfOutput output;
    private final Map<String, Double> exported = new HashMap<>();
    private final Map<String, Double> exportedLatencyTotal = new HashMap<>();
    private final BreakerMetrics breakers;

    public ConsumerMetrics(EmfOutput output) {
        this.output = output;
        this.breakers = new BreakerMetrics(output);
    }

    /** The circuit breakers' metrics, flushed with the consumer's. */
    public BreakerMetrics breakers() {
        return breakers;
    }

    /** Times one effect of {@code consumer}; called concurrently by the records of a batch. */
    public void effectLatency(String consumer, Duration latency) {
        Timer.builder(Metrics.EFFECT_LATENCY)
                .tag(Dimensions.CONSUMER, consumer)
                .register(registry)
                .record(latency.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Counts the outcomes of a batch. */
    public void record(String consumer, BatchReport report) {
        for (BatchReport.Entry e : report.entries()) {
            MessageOutcome o = e.outcome();
            if (o instanceof MessageOutcome.Applied) {
                count(consumer, Metrics.PROCESSED, null);
            } else if (o instanceof MessageOutcome.Duplicate) {
                count(consumer, Metrics.DUPLICATES, null);
            } else if (o instanceof MessageOutcome.Deferred) {
                count(consumer, Metrics.DEFERRED, null);
            } else if (o instanceof MessageOutcome.RefusedByBreaker) {
                count(consumer, Metrics.DEFERRED_BY_BREAKER, null);
            } else if (o instanceof MessageOutcome.TimedOut) {
                count(consumer, Metrics.TIMED_OUT, null);
            } else if (o instanceof MessageOutcome.Superseded) {
                count(consumer, Metrics.SUPERSEDED, null);
            } else if (o instanceof MessageOutcome.SkippedAfterGroupFailure) {
                count(consumer, Metrics.HELD_BEHIND_GROUP_HEAD, null);
            } else if (o instanceof MessageOutcome.RetryLater r) {
                count(consumer, Metrics.FAILURES, r.classification().failureClass());
            } else if (o instanceof MessageOutcome.DeadLettered d) {
                count(consumer, Metrics.FAILURES, d.failure().failureClass());
                count(consumer, Metrics.DEAD_LETTERED, d.failure().failureClass());
            }
        }
        report.visibilityNotChanged().forEach(id -> count(consumer, Metrics.VISIBILITY_NOT_CHANGED, null));
    }

    private void count(String consumer, String name, FailureClass failureClass) {
        Counter.Builder b = Counter.builder(name).tag(Dimensions.CONSUMER, consumer);
        if (failureClass != null) {
            b.tag(Dimensions.FAILURE_CLASS, failureClass.name());
        }
        b.register(registry).increment();
    }

    /** Writes what changed since the last flush as EMF documents: one per dimension set. */
    public synchronized void flush(String consumer) {
        MetricsLogger plain = logger(DimensionSet.of(Dimensions.CONSUMER, consumer));
        boolean anyPlain = false;
        for (String name : new String[] {
            Metrics.PROCESSED,
            Metrics.DUPLICATES,
            Metrics.DEFERRED,
            Metrics.TIMED_OUT,
            Metrics.SUPERSEDED,
            Metrics.HELD_BEHIND_GROUP_HEAD,
            Metrics.VISIBILITY_NOT_CHANGED,
            Metrics.DEFERRED_BY_BREAKER
        }) {
            double delta = delta(
                    consumer + "/" + name,
                    registry.find(name).tag(Dimensions.CONSUMER, consumer).counter());
            if (delta > 0 || Metrics.PROCESSED.equals(name)) {
                plain.putMetric(name, delta, Unit.COUNT);
                anyPlain = true;
            }
        }
        Timer latency = registry.find(Metrics.EFFECT_LATENCY)
                .tag(Dimensions.CONSUMER, consumer)
                .timer();
        if (latency != null) {
            String key = consumer + "/EffectLatency";
            double count = latency.count() - exported.getOrDefault(key, 0.0);
            double total = latency.totalTime(TimeUnit.MILLISECONDS) - exportedLatencyTotal.getOrDefault(key, 0.0);
            if (count > 0) {
                plain.putMetric(Metrics.EFFECT_LATENCY, total / count, Unit.MILLISECONDS);
            }
            exported.put(key, (double) latency.count());
            exportedLatencyTotal.put(key, latency.totalTime(TimeUnit.MILLISECONDS));
        }
        if (anyPlain) {
            plain.flush();
        }
        Map<FailureClass, MetricsLogger> byClass = new EnumMap<>(FailureClass.class);
        for (FailureClass c : FailureClass.values()) {
            for (String name : new String[] {Metrics.FAILURES, Metrics.DEAD_LETTERED}) {
                Counter counter = registry.find(name)
                        .tag(Dimensions.CONSUMER, consumer)
                        .tag(Dimensions.FAILURE_CLASS, c.name())
                        .counter();
                double delta = delta(consumer + "/" + name + "/" + c, counter);
                if (delta > 0) {
                    byClass.computeIfAbsent(
                                    c,
                                    k -> logger(DimensionSet.of(
                                            Dimensions.CONSUMER, consumer, Dimensions.FAILURE_CLASS, k.name())))
                            .putMetric(name, delta, Unit.COUNT);
                }
            }
        }
        byClass.values().forEach(MetricsLogger::flush);
        breakers.flush();
    }

    private double delta(String key, Counter counter) {
        if (counter == null) {
            return 0;
        }
        double now = counter.count();
        Double before = exported.put(key, now);
        return now - (before == null ? 0 : before);
    }

    private MetricsLogger logger(DimensionSet dimensions) {
        MetricsLogger logger = new MetricsLogger(output);
        logger.setNamespace(Metrics.NAMESPACE);
        logger.setDimensions(dimensions);
        return logger;
    }
}
