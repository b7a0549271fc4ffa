package dev.redrive.functions.testing;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts AWS API calls by operation as an SDK execution interceptor: {@code PutItem} for a successful call,
 * {@code PutItem!} for one that failed (a refused conditional write, say). Thread-safe.
 */
public final class ApiCallCounter implements ExecutionInterceptor {

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        count(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        count(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + "!");
    }

    private void count(String operation) {
        calls.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
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
    }
}
