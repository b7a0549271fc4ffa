package dev.redrive.functions.testing;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts AWS API calls by operation as an SDK execution interceptor: {@code PutItem} for a successful call,
 * {@code PutItem!} for one that failed (a refused conditional write, say), and the wall time spent in them.
 * Thread-safe.
 */
public final class ApiCallCounter implements ExecutionInterceptor {

    private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("redrive.bench.started");

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> nanos = new ConcurrentHashMap<>();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        attributes.putAttribute(STARTED, System.nanoTime());
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        count(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), attributes);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        count(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + "!", attributes);
    }

    private void count(String operation, ExecutionAttributes attributes) {
        calls.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
        Long started = attributes.getAttribute(STARTED);
        if (started != null) {
            nanos.computeIfAbsent(operation, k -> new AtomicLong()).addAndGet(System.nanoTime() - started);
        }
    }

    /** Milliseconds spent in calls since the last reset, by operation, sorted (summed over threads). */
    public Map<String, Long> millis() {
        Map<String, Long> copy = new TreeMap<>();
        nanos.forEach((k, v) -> copy.put(k, v.get() / 1_000_000));
        return copy;
    }

    /** Calls since the last reset, by operation, sorted. */
    public Map<String, Integer> snapshot() {
        Map<String, Integer> copy = new TreeMap<>();
        calls.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    public int total() {
        return calls.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    public void reset() {
        calls.clear();
        nanos.clear();
    }
}
