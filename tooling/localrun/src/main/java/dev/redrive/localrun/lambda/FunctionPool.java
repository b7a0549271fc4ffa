package dev.redrive.localrun.lambda;

import dev.redrive.localrun.lambda.FunctionInstance.FunctionCannotStart;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The sandboxes of one function: up to {@code maxInstances} processes, started on demand (cold starts), each serving
 * one invocation at a time, as Lambda scales a function.
 */
public final class FunctionPool implements AutoCloseable {

    /** Makes the sandbox of one slot of a pool (its environment may differ per slot: its own endpoints, say). */
    @FunctionalInterface
    public interface SandboxFactory {
        FunctionInstance create(int slot, Consumer<SandboxExit> exits);
    }

    private final String name;
    private final SandboxFactory factory;
    private final Duration timeout;
    private final Duration initTimeout;
    private final int maxInstances;
    private final BlockingQueue<FunctionInstance> idle;
    private final List<FunctionInstance> all = new ArrayList<>();
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicLong invocations = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final List<SandboxExit> exits = new CopyOnWriteArrayList<>();
    private final AtomicReference<FunctionCannotStart> cannotStart = new AtomicReference<>();
    private volatile Predicate<String> crashOn = payload -> false;

    public FunctionPool(
            SandboxSpec spec,
            ManagedJavaRuntime runtime,
            Path logDir,
            Duration timeout,
            Duration initTimeout,
            int maxInstances) {
        this(
                spec.functionName(),
                (slot, exits) -> new FunctionInstance(
                        spec, slot, runtime, logDir.resolve(spec.functionName() + "-" + slot + ".log"), exits),
                timeout,
                initTimeout,
                maxInstances);
    }

    /** A pool whose slots' sandboxes {@code factory} makes. */
    public FunctionPool(String name, SandboxFactory factory, Duration timeout, Duration initTimeout, int maxInstances) {
        this.name = name;
        this.factory = factory;
        this.timeout = timeout;
        this.initTimeout = initTimeout;
        this.maxInstances = Math.max(1, maxInstances);
        this.idle = new ArrayBlockingQueue<>(this.maxInstances);
    }

    public String name() {
        return name;
    }

    /** Invokes the function synchronously (RequestResponse), waiting for a free sandbox. */
    public InvocationResult invoke(String payload) throws InterruptedException {
        failIfCannotStart();
        FunctionInstance instance = acquire();
        try {
            InvocationResult r = crashOn.test(payload)
                    ? instance.crashWhileHandling(payload, initTimeout)
                    : instance.invoke(payload, timeout, initTimeout);
            invocations.incrementAndGet();
            if (r instanceof InvocationResult.FunctionError) {
                errors.incrementAndGet();
            } else if (r instanceof InvocationResult.Timeout) {
                timeouts.incrementAndGet();
            }
            return r;
        } catch (FunctionCannotStart e) {
            cannotStart.compareAndSet(null, e);
            throw e;
        } finally {
            idle.add(instance);
        }
    }

    /** Starts one sandbox ahead of traffic, so the first batch does not pay the cold start. */
    public void warm() throws InterruptedException {
        FunctionInstance instance = acquire();
        idle.add(instance);
    }

    private FunctionInstance acquire() throws InterruptedException {
        FunctionInstance free = idle.poll();
        if (free != null) {
            return free;
        }
        synchronized (this) {
            if (started.get() < maxInstances) {
                int n = started.incrementAndGet();
                FunctionInstance created = factory.create(n, exits::add);
                try {
                    created.start(initTimeout);
                } catch (FunctionCannotStart e) {
                    started.decrementAndGet();
                    cannotStart.compareAndSet(null, e);
                    throw e;
                } catch (RuntimeException e) {
                    started.decrementAndGet();
                    throw e;
                }
                all.add(created);
                return created;
            }
        }
        return idle.take();
    }

    /**
     * Fault injection at the Lambda service level, for the poison scenario: a sandbox handed a payload that matches
     * dies mid-invocation (as when the function runs out of memory on it). The function's code is unchanged.
     */
    public void crashOn(Predicate<String> predicate) {
        this.crashOn = predicate;
    }

    /** Throws when this function's sandboxes cannot start at all: the run cannot go on. */
    public void failIfCannotStart() {
        FunctionCannotStart e = cannotStart.get();
        if (e != null) {
            throw e;
        }
    }

    /** Sandboxes that ended without being asked to, in the order seen. */
    public List<SandboxExit> exits() {
        return List.copyOf(exits);
    }

    public long invocations() {
        return invocations.get();
    }

    public long errors() {
        return errors.get();
    }

    public long timeouts() {
        return timeouts.get();
    }

    /** The first sandbox's start-up to first response, in milliseconds (-1 until it has answered). */
    public synchronized long firstStartToFirstResponseMillis() {
        return all.isEmpty() || all.get(0).startToFirstResponse() == null
                ? -1
                : all.get(0).startToFirstResponse().toMillis();
    }

    /** The first sandbox's start-up until it polled the Runtime API (its init), in milliseconds. */
    public synchronized long firstInitMillis() {
        return all.isEmpty() ? -1 : all.get(0).initDuration().toMillis();
    }

    public int instances() {
        return started.get();
    }

    /** The sandboxes started so far, one per slot. */
    public synchronized List<FunctionInstance> sandboxes() {
        return List.copyOf(all);
    }

    /** Cold starts: processes started, the median init (start to first poll) and median first invocation, in ms. */
    public synchronized Map<String, Long> coldStarts() {
        List<Long> inits = new ArrayList<>();
        List<Long> firsts = new ArrayList<>();
        all.forEach(i -> {
            inits.addAll(i.initMillis());
            firsts.addAll(i.firstInvocationMillis());
        });
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put("processes", (long) inits.size());
        m.put("medianInitMs", median(inits));
        m.put("medianFirstInvocationMs", median(firsts));
        m.put(
                "slowestFirstInvocationMs",
                firsts.stream().mapToLong(Long::longValue).max().orElse(-1));
        return m;
    }

    private static long median(List<Long> values) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        java.util.Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    /** Sandbox processes killed by injected faults. */
    public synchronized long injectedKills() {
        return all.stream().mapToLong(FunctionInstance::injectedKills).sum();
    }

    /** The invocation timeout sandboxes of this pool get. */
    public Duration timeout() {
        return timeout;
    }

    @Override
    public synchronized void close() {
        all.forEach(FunctionInstance::close);
    }
}
