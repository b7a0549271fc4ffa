package dev.redrive.localrun.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Calls reaching a dependency, second by second, while replays land on it: a counter sampled every {@value
 * #SAMPLE_MILLIS} ms from {@link #start} to {@link #close}. It shows whether a backlog of replays reached the provider
 * at the replay pace or all at once.
 */
final class ProviderCallTimeline implements AutoCloseable {

    static final long SAMPLE_MILLIS = 100;

    private final LongSupplier calls;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "provider-call-timeline");
        t.setDaemon(true);
        return t;
    });
    /** (milliseconds since the start, calls so far), oldest first. */
    private final List<long[]> samples = new ArrayList<>();

    private long startNanos;

    ProviderCallTimeline(LongSupplier calls) {
        this.calls = calls;
    }

    ProviderCallTimeline start() {
        startNanos = System.nanoTime();
        sample();
        timer.scheduleAtFixedRate(this::sample, SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    private synchronized void sample() {
        samples.add(new long[] {(System.nanoTime() - startNanos) / 1_000_000, calls.getAsLong()});
    }

    /** Calls in each whole second since the start. */
    synchronized List<Long> perSecond() {
        List<Long> seconds = new ArrayList<>();
        long base = samples.isEmpty() ? 0 : samples.get(0)[1];
        long lastSecond = samples.isEmpty() ? -1 : samples.get(samples.size() - 1)[0] / 1000;
        int i = 0;
        long before = base;
        for (long s = 0; s <= lastSecond; s++) {
            long end = before;
            while (i < samples.size() && samples.get(i)[0] < (s + 1) * 1000) {
                end = samples.get(i)[1];
                i++;
            }
            seconds.add(end - before);
            before = end;
        }
        return seconds;
    }

    /** The most calls in any {@code seconds} consecutive whole seconds. */
    long peak(int seconds) {
        return peak(perSecond(), seconds);
    }

    private static long peak(List<Long> per, int seconds) {
        long peak = 0;
        for (int from = 0; from < per.size(); from++) {
            long sum = 0;
            for (int k = from; k < Math.min(per.size(), from + seconds); k++) {
                sum += per.get(k);
            }
            peak = Math.max(peak, sum);
        }
        return peak;
    }

    /** Total calls, how long they took to land (first to last second with a call), and the peaks. */
    Map<String, Object> figures() {
        List<Long> per = perSecond();
        int first = 0;
        while (first < per.size() && per.get(first) == 0) {
            first++;
        }
        int last = per.size() - 1;
        while (last >= 0 && per.get(last) == 0) {
            last--;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("calls", per.stream().mapToLong(Long::longValue).sum());
        m.put("seconds from the first call to the last", last < first ? 0 : last - first + 1);
        m.put("most in one second", peak(per, 1));
        m.put("most in five seconds", peak(per, 5));
        m.put("most in ten seconds", peak(per, 10));
        m.put("per second", last < first ? List.of() : per.subList(first, last + 1));
        return m;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        sample();
    }
}
