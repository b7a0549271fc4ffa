package dev.redrive.localrun.lambda;

import dev.redrive.localrun.lambda.FunctionInstance.FunctionCannotStart;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * The sandboxes of one function: up to {@code maxInstances} processes, started on demand (cold starts), each serving
 * one invocation at a time, as Lambda scales a function.
 */
public final class FunctionPool implements AutoCloseable {

    private final String name;
    private final SandboxSpec spec;
    private final ManagedJavaRuntime runtime;
    private final Path logDir;
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
        this.name = spec.functionName();
        this.spec = spec;
        this.runtime = runtime;
        this.logDir = logDir;
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
                FunctionInstance created =
                        new FunctionInstance(spec, n, runtime, logDir.resolve(name + "-" + n + ".log"), exits::add);
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

    @Override
    public synchronized void close() {
        all.forEach(FunctionInstance::close);
    }
}
