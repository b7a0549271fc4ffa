package dev.redrive.core.replay;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * Runs a batch's replay checks (schema check, claim lookup, a payload read) on a few threads started for the batch and
 * joined before it returns, so the reads of one chunk overlap. Each result goes into its own slot of an atomic array
 * (no list is written from two threads). Bounded by a deadline (the sweeper's lease end): no check starts after it, a
 * check still running at it is interrupted, and a result that arrives after it is dropped (empty); the call never
 * returns while one of its threads still runs (a Lambda environment frozen after the handler returned would resume
 * it, thawed, after the lease). The first exception a check throws is thrown once every thread has stopped, as it
 * would have been one at a time.
 */
final class ParallelChecks {

    private ParallelChecks() {}

    static <T, R> List<Optional<R>> map(
            List<T> inputs, Function<T, R> check, int parallelism, Optional<Instant> deadline, Clock clock) {
        int n = inputs.size();
        AtomicReferenceArray<R> results = new AtomicReferenceArray<>(n);
        if (parallelism <= 1 || n <= 1) {
            for (int i = 0; i < n && !passed(deadline, clock); i++) {
                results.set(i, check.apply(inputs.get(i)));
            }
            return collect(results, n);
        }
        AtomicInteger next = new AtomicInteger();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Runnable lane = () -> {
            for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                if (failure.get() != null
                        || passed(deadline, clock)
                        || Thread.currentThread().isInterrupted()) {
                    return;
                }
                try {
                    R r = check.apply(inputs.get(i));
                    if (!passed(deadline, clock)) {
                        results.set(i, r);
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                    return;
                }
            }
        };
        List<Thread> lanes = new ArrayList<>();
        for (int t = 0; t < Math.min(parallelism, n); t++) {
            Thread thread = new Thread(lane, "replay-check-" + t);
            thread.setDaemon(true);
            lanes.add(thread);
            thread.start();
        }
        boolean interrupted = false;
        for (Thread thread : lanes) {
            while (thread.isAlive()) {
                try {
                    Duration left = deadline.map(d -> Duration.between(clock.instant(), d))
                            .orElse(Duration.ofSeconds(1));
                    if (left.isNegative() || left.isZero()) {
                        lanes.forEach(Thread::interrupt); // at the deadline: stop what still runs, then wait for it
                        thread.join();
                    } else {
                        thread.join(Math.max(1, left.toMillis()));
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                    lanes.forEach(Thread::interrupt);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return collect(results, n);
    }

    private static boolean passed(Optional<Instant> deadline, Clock clock) {
        return deadline.isPresent() && !clock.instant().isBefore(deadline.get());
    }

    private static <R> List<Optional<R>> collect(AtomicReferenceArray<R> results, int n) {
        List<Optional<R>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(Optional.ofNullable(results.get(i)));
        }
        return out;
    }
}
