package dev.redrive.localrun.eventsource;

import dev.redrive.localrun.lambda.FunctionPool;
import dev.redrive.localrun.lambda.InvocationResult;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * EventBridge Scheduler, locally: invokes a function at a schedule's rate, divided by a speed factor for demos
 * ({@code rate(5 minutes)} at speed 60 fires every 5 seconds). Invocations are asynchronous; one schedule's never
 * overlap, and schedules do not wait for each other. A scenario can hold a function's schedule (it skips its firings
 * until released, and the hold returns once the firing running at the time, if any, has ended), to place a scheduled
 * run after an event it plays.
 */
public final class LocalScheduler implements AutoCloseable {

    private static final Pattern RATE =
            Pattern.compile("rate\\((\\d+)\\s+(second|seconds|minute|minutes|hour|hours|day|" + "days)\\)");

    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(4, r -> {
        Thread t = new Thread(r, "local-scheduler");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong fired = new AtomicLong();
    private final java.util.Set<String> held = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Firings running now, by function; its monitor orders holds against firings. */
    private final java.util.Map<String, Integer> firing = new java.util.HashMap<>();

    /** The period of a {@code rate(...)} expression. */
    public static Duration period(String expression) {
        Matcher m = RATE.matcher(expression.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("only rate(...) schedules run locally, not: " + expression);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2).replaceAll("s$", "")) {
            case "second" -> Duration.ofSeconds(n);
            case "minute" -> Duration.ofMinutes(n);
            case "hour" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /** One synchronous invocation of a scheduled function with its input. */
    @FunctionalInterface
    public interface Invocation {
        InvocationResult invoke(String input) throws InterruptedException;
    }

    /** Fires {@code function} with {@code input} every {@code period / speed}. */
    public void schedule(
            FunctionPool function, String input, Duration period, double speed, Consumer<InvocationResult> onResult) {
        schedule(function.name(), function::invoke, input, period, speed, onResult);
    }

    /** Fires the function {@code name} through {@code invocation} with {@code input} every {@code period / speed}. */
    public void schedule(
            String name,
            Invocation invocation,
            String input,
            Duration period,
            double speed,
            Consumer<InvocationResult> onResult) {
        long every = Math.max(200, (long) (period.toMillis() / Math.max(1.0, speed)));
        timer.scheduleWithFixedDelay(
                () -> {
                    if (!startFiring(name)) {
                        return;
                    }
                    try {
                        fired.incrementAndGet();
                        onResult.accept(invocation.invoke(input));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        onResult.accept(new InvocationResult.FunctionError("Scheduler", e.getMessage(), Duration.ZERO));
                    } finally {
                        endFiring(name);
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Holds {@code function}'s schedules (their firings are skipped) or releases them. A hold returns once no firing of
     * {@code function} is running any more: from then on, until it is released, no scheduled invocation of it runs at
     * all (a scenario that holds the sweeper knows no sweep is half-way through).
     */
    public void hold(String function, boolean hold) throws InterruptedException {
        synchronized (firing) {
            if (!hold) {
                held.remove(function);
                return;
            }
            held.add(function);
            while (firing.getOrDefault(function, 0) > 0) {
                firing.wait();
            }
        }
    }

    /** Whether a firing of {@code function} may start (it is not held); if so it is counted as running. */
    private boolean startFiring(String function) {
        synchronized (firing) {
            if (held.contains(function)) {
                return false;
            }
            firing.merge(function, 1, Integer::sum);
            return true;
        }
    }

    private void endFiring(String function) {
        synchronized (firing) {
            firing.merge(function, -1, Integer::sum);
            firing.notifyAll();
        }
    }

    public long fired() {
        return fired.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
