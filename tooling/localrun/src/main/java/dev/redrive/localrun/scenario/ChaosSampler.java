package dev.redrive.localrun.scenario;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.chaos.Chaos;
import dev.redrive.localrun.chaos.FaultKind;
import dev.redrive.localrun.report.Timeline;
import dev.redrive.localrun.report.Timeline.Chart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Samples the chaos run every few seconds for the report's charts: queue depths and the age of their oldest message,
 * dead letters by failure class, the ledger by state, injected faults, replays, orders applied, and the emulator's
 * calls per second and memory (the moto process's resident set).
 */
final class ChaosSampler implements AutoCloseable {

    static final String DEPTH = "depth";
    static final String AGE = "age";
    static final String ARRIVALS = "arrivals";
    static final String STATES = "states";
    static final String FAULTS = "faults";
    static final String REPLAYS = "replays";
    static final String APPLIED = "applied";
    static final String EMULATOR = "emulator";

    private final LocalSystem system;
    private final Observer observer;
    private final Chaos chaos;
    private final Map<String, String> queues;
    private final Supplier<Map<String, Number>> producer;
    private final Timeline timeline;
    private final long started = System.nanoTime();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chaos-sampler");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong motoPeakKb = new AtomicLong();
    private final AtomicLong runnerPeakKb = new AtomicLong();
    private final AtomicLong motoCpuMillis = new AtomicLong();
    private volatile Map<String, Number> lastLedger = Map.of();
    private volatile List<QuarantineRecord> ledger = List.of();
    private long lastCalls;
    private long lastCallsNanos = System.nanoTime();
    private int samples;
    private volatile double peakCallsPerSecond;

    static final String CHECKOUTS_DONE = "checkouts done";
    static final String PUBLISHED = "events published";

    /**
     * @param queues   label to queue URL: the two source queues and the two DLQs
     * @param producer the producer's figures: {@value #CHECKOUTS_DONE} and {@value #PUBLISHED}
     */
    ChaosSampler(
            LocalSystem system, Observer observer, Map<String, String> queues, Supplier<Map<String, Number>> producer) {
        this.system = system;
        this.observer = observer;
        this.chaos = system.chaos().orElseThrow();
        this.queues = new LinkedHashMap<>(queues);
        this.producer = producer;
        List<String> labels = List.copyOf(queues.keySet());
        this.timeline = new Timeline(List.of(
                Chart.ofCounts(DEPTH, "Queue depth (visible, in flight and delayed)", "messages", labels),
                new Chart(AGE, "Age of the oldest message not done yet", "s", labels),
                Chart.ofCounts(
                        ARRIVALS,
                        "Dead letters quarantined, by failure class (cumulative)",
                        "records",
                        Arrays.stream(FailureClass.values()).map(Enum::name).toList()),
                Chart.ofCounts(
                        STATES,
                        "Quarantine ledger by state",
                        "records",
                        Arrays.stream(QuarantineState.values()).map(Enum::name).toList()),
                Chart.ofCounts(
                        FAULTS,
                        "Injected faults (cumulative)",
                        "injections",
                        Arrays.stream(FaultKind.values()).map(FaultKind::flag).toList()),
                Chart.ofCounts(
                        REPLAYS,
                        "Replays (cumulative)",
                        "replays",
                        List.of("sent by the sweeper", "sent by a person", "already applied", "returned to the DLQ")),
                Chart.ofCounts(
                        APPLIED,
                        "Orders: checkouts done, events published by the relay, applied by each consumer",
                        "orders",
                        List.of(CHECKOUTS_DONE, PUBLISHED, LocalSystem.EMAIL, LocalSystem.REVENUE)),
                new Chart(EMULATOR, "Local AWS", "", List.of("calls per second", "moto RSS (MB)"))));
    }

    void start() {
        timer.scheduleWithFixedDelay(this::sampleQuietly, 0, 2, TimeUnit.SECONDS);
    }

    Timeline timeline() {
        return timeline;
    }

    /** The moto process's largest resident set seen, in kB (0 when moto is not a child of this run). */
    long motoPeakKb() {
        return motoPeakKb.get();
    }

    /** This process's largest resident set seen, in kB: ElasticMQ, the proxies, the pollers, the producers. */
    long runnerPeakKb() {
        return runnerPeakKb.get();
    }

    double peakCallsPerSecond() {
        return peakCallsPerSecond;
    }

    /** The ledger as last read (every other sample). */
    List<QuarantineRecord> lastLedger() {
        return ledger;
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (RuntimeException e) {
            // local AWS busy or closing: the next sample tries again
        }
    }

    synchronized void sample() {
        long nowMillis = System.currentTimeMillis();
        Map<String, Map<String, ? extends Number>> values = new LinkedHashMap<>();
        Map<String, Number> depth = new LinkedHashMap<>();
        Map<String, Number> age = new LinkedHashMap<>();
        queues.forEach((label, url) -> {
            depth.put(label, observer.depth(url));
            age.put(label, chaos.messages().oldestAgeMillis(url, nowMillis) / 1000.0);
        });
        values.put(DEPTH, depth);
        values.put(AGE, age);
        if (samples++ % 2 == 0) {
            ledger = observer.ledger();
            lastLedger = ledgerFigures(ledger);
        }
        Map<String, Number> classes = new LinkedHashMap<>();
        Map<String, Number> states = new LinkedHashMap<>();
        Map<String, Number> replays = new LinkedHashMap<>();
        lastLedger.forEach((k, v) -> {
            if (k.startsWith("class:")) {
                classes.put(k.substring(6), v);
            } else if (k.startsWith("state:")) {
                states.put(k.substring(6), v);
            } else {
                replays.put(k, v);
            }
        });
        values.put(ARRIVALS, classes);
        values.put(STATES, states);
        values.put(REPLAYS, replays);
        Map<String, Number> faults = new LinkedHashMap<>();
        for (FaultKind k : FaultKind.values()) {
            faults.put(k.flag(), chaos.faults().total(k));
        }
        values.put(FAULTS, faults);
        Map<String, Number> orders = new LinkedHashMap<>(producer.get());
        orders.put(LocalSystem.EMAIL, chaos.journal().completedKeys(LocalSystem.EMAIL + "#"));
        orders.put(LocalSystem.REVENUE, chaos.journal().completedKeys(LocalSystem.REVENUE + "#"));
        values.put(APPLIED, orders);
        values.put(EMULATOR, emulator());
        timeline.sample((System.nanoTime() - started) / 1e9, values);
    }

    private Map<String, Number> emulator() {
        long calls = system.apiCalls().values().stream()
                .flatMap(m -> m.values().stream())
                .mapToLong(Long::longValue)
                .sum();
        long now = System.nanoTime();
        double perSecond = (calls - lastCalls) / Math.max(1e-3, (now - lastCallsNanos) / 1e9);
        lastCalls = calls;
        lastCallsNanos = now;
        peakCallsPerSecond = Math.max(peakCallsPerSecond, perSecond);
        long rssKb = system.aws().motoPid().map(ChaosSampler::residentKb).orElse(0L);
        system.aws().motoPid().map(ChaosSampler::cpuMillis).ifPresent(motoCpuMillis::set);
        motoPeakKb.accumulateAndGet(rssKb, Math::max);
        runnerPeakKb.accumulateAndGet(residentKb(ProcessHandle.current().pid()), Math::max);
        Map<String, Number> m = new LinkedHashMap<>();
        m.put("calls per second", perSecond);
        m.put("moto RSS (MB)", rssKb / 1024.0);
        return m;
    }

    /** The replay lines of the last ledger read (sent by the sweeper, by a person, already applied, returned). */
    Map<String, Number> replays() {
        Map<String, Number> m = new LinkedHashMap<>();
        ledgerFigures(observer.ledger()).forEach((k, v) -> {
            if (!k.startsWith("class:") && !k.startsWith("state:")) {
                m.put(k, v);
            }
        });
        return m;
    }

    /** Counts by class ({@code class:X}), by state ({@code state:X}) and the replay lines, from the audit trails. */
    static Map<String, Number> ledgerFigures(List<QuarantineRecord> ledger) {
        Map<String, Number> m = new LinkedHashMap<>();
        long bySweeper = 0;
        long byPerson = 0;
        long alreadyApplied = 0;
        long returned = 0;
        Map<String, Long> classes = new LinkedHashMap<>();
        Map<String, Long> states = new LinkedHashMap<>();
        for (QuarantineRecord r : ledger) {
            classes.merge(r.classification().failureClass().name(), 1L, Long::sum);
            states.merge(r.state().name(), 1L, Long::sum);
            for (AuditEntry e : r.audit()) {
                if (e.to() == QuarantineState.REPLAYED) {
                    if (e.reason().contains("already applied")) {
                        alreadyApplied++;
                    } else if (e.actor().automated()) {
                        bySweeper++;
                    } else {
                        byPerson++;
                    }
                } else if (e.reason().contains("dead-lettered again")) {
                    returned++;
                }
            }
        }
        classes.forEach((k, v) -> m.put("class:" + k, v));
        states.forEach((k, v) -> m.put("state:" + k, v));
        m.put("sent by the sweeper", bySweeper);
        m.put("sent by a person", byPerson);
        m.put("already applied", alreadyApplied);
        m.put("returned to the DLQ", returned);
        return m;
    }

    /** The moto process's CPU time so far (user + system), in milliseconds. */
    long motoCpuMillis() {
        return motoCpuMillis.get();
    }

    static long cpuMillis(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10; // clock ticks of 10 ms
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    static long residentKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
