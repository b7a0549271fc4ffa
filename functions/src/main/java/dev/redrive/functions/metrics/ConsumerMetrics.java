package dev.redrive.functions.metrics;

import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.core.failure.FailureClass;
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
 * at the end of every invocation as Embedded Metric Format on stdout, namespace {@value #NAMESPACE}. Only what
 * changed during the invocation is exported. Names: {@code Processed}, {@code Duplicates}, {@code Deferred},
 * {@code TimedOut}, {@code Superseded}, {@code HeldBehindGroupHead}, {@code VisibilityNotChanged} (a retry delay the
 * queue did not take), {@code EffectLatency} (dimension {@code Consumer}); {@code Failures} and
 * {@code DeadLettered} (dimensions {@code Consumer}, {@code FailureClass}).
 */
public final class ConsumerMetrics {

    public static final String NAMESPACE = "Redrive";

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final EmfOutput output;
    private final Map<String, Double> exported = new HashMap<>();
    private final Map<String, Double> exportedLatencyTotal = new HashMap<>();

    public ConsumerMetrics(EmfOutput output) {
        this.output = output;
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Times one effect of {@code consumer}; called concurrently by the records of a batch. */
    public void effectLatency(String consumer, Duration latency) {
        Timer.builder("EffectLatency")
                .tag("Consumer", consumer)
                .register(registry)
                .record(latency.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Counts the outcomes of a batch. */
    public void record(String consumer, BatchReport report) {
        for (BatchReport.Entry e : report.entries()) {
            MessageOutcome o = e.outcome();
            if (o instanceof MessageOutcome.Applied) {
                count(consumer, "Processed", null);
            } else if (o instanceof MessageOutcome.Duplicate) {
                count(consumer, "Duplicates", null);
            } else if (o instanceof MessageOutcome.Deferred) {
                count(consumer, "Deferred", null);
            } else if (o instanceof MessageOutcome.TimedOut) {
                count(consumer, "TimedOut", null);
            } else if (o instanceof MessageOutcome.Superseded) {
                count(consumer, "Superseded", null);
            } else if (o instanceof MessageOutcome.SkippedAfterGroupFailure) {
                count(consumer, "HeldBehindGroupHead", null);
            } else if (o instanceof MessageOutcome.RetryLater r) {
                count(consumer, "Failures", r.classification().failureClass());
            } else if (o instanceof MessageOutcome.DeadLettered d) {
                count(consumer, "Failures", d.failure().failureClass());
                count(consumer, "DeadLettered", d.failure().failureClass());
            }
        }
        report.visibilityNotChanged().forEach(id -> count(consumer, "VisibilityNotChanged", null));
    }

    private void count(String consumer, String name, FailureClass failureClass) {
        Counter.Builder b = Counter.builder(name).tag("Consumer", consumer);
        if (failureClass != null) {
            b.tag("FailureClass", failureClass.name());
        }
        b.register(registry).increment();
    }

    /** Writes what changed since the last flush as EMF documents: one per dimension set. */
    public synchronized void flush(String consumer) {
        MetricsLogger plain = logger(DimensionSet.of("Consumer", consumer));
        boolean anyPlain = false;
        for (String name : new String[] {
            "Processed",
            "Duplicates",
            "Deferred",
            "TimedOut",
            "Superseded",
            "HeldBehindGroupHead",
            "VisibilityNotChanged"
        }) {
            double delta = delta(
                    consumer + "/" + name,
                    registry.find(name).tag("Consumer", consumer).counter());
            if (delta > 0 || "Processed".equals(name)) {
                plain.putMetric(name, delta, Unit.COUNT);
                anyPlain = true;
            }
        }
        Timer latency = registry.find("EffectLatency").tag("Consumer", consumer).timer();
        if (latency != null) {
            String key = consumer + "/EffectLatency";
            double count = latency.count() - exported.getOrDefault(key, 0.0);
            double total = latency.totalTime(TimeUnit.MILLISECONDS) - exportedLatencyTotal.getOrDefault(key, 0.0);
            if (count > 0) {
                plain.putMetric("EffectLatency", total / count, Unit.MILLISECONDS);
            }
            exported.put(key, (double) latency.count());
            exportedLatencyTotal.put(key, latency.totalTime(TimeUnit.MILLISECONDS));
        }
        if (anyPlain) {
            plain.flush();
        }
        Map<FailureClass, MetricsLogger> byClass = new EnumMap<>(FailureClass.class);
        for (FailureClass c : FailureClass.values()) {
            for (String name : new String[] {"Failures", "DeadLettered"}) {
                Counter counter = registry.find(name)
                        .tag("Consumer", consumer)
                        .tag("FailureClass", c.name())
                        .counter();
                double delta = delta(consumer + "/" + name + "/" + c, counter);
                if (delta > 0) {
                    byClass.computeIfAbsent(
                                    c, k -> logger(DimensionSet.of("Consumer", consumer, "FailureClass", k.name())))
                            .putMetric(name, delta, Unit.COUNT);
                }
            }
        }
        byClass.values().forEach(MetricsLogger::flush);
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
        logger.setNamespace(NAMESPACE);
        logger.setDimensions(dimensions);
        return logger;
    }
}
