package dev.redrive.cdk.function;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What distinguishes one Redrive function from another: they all run the same artifact.
 *
 * @param handlerName  the Quarkus {@code @Named} handler, set as {@code QUARKUS_LAMBDA_HANDLER}
 * @param runtime      native or JVM
 * @param timeout      the Lambda timeout (at most 15 minutes)
 * @param memoryMb     memory in MB (128 to 10240)
 * @param environment  environment variables besides the handler and the runtime's own
 * @param description  the function's description
 * @param reservedConcurrency the concurrency reserved for the function, which is also its ceiling; empty: none (it
 *                     shares the account's unreserved pool)
 */
public record FunctionSpec(
        String handlerName,
        FunctionRuntime runtime,
        Duration timeout,
        int memoryMb,
        Map<String, String> environment,
        String description,
        Optional<Integer> reservedConcurrency) {

    /** Checks the limits Lambda enforces, so a mistake fails the synthesis rather than the deployment. */
    public FunctionSpec {
        Objects.requireNonNull(handlerName, "handlerName");
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(reservedConcurrency, "reservedConcurrency");
        environment = Map.copyOf(environment);
        reservedConcurrency.ifPresent(r -> {
            if (r < 1) {
                throw new IllegalArgumentException("reserved concurrency " + r + " of " + handlerName + " must be at "
                        + "least 1: Lambda never invokes a function whose reserved concurrency is 0");
            }
        });
        if (timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.compareTo(Duration.ofMinutes(15)) > 0) {
            throw new IllegalArgumentException(
                    "function timeout " + timeout + " of " + handlerName + " is outside Lambda's 1 s to 15 min");
        }
        if (timeout.toMillis() % 1000 != 0) {
            throw new IllegalArgumentException(
                    "function timeout " + timeout + " of " + handlerName + " must be whole seconds");
        }
        if (memoryMb < 128 || memoryMb > 10240) {
            throw new IllegalArgumentException(
                    "memory " + memoryMb + " MB of " + handlerName + " is outside Lambda's 128 to 10240 MB");
        }
    }

    /** A spec without reserved concurrency: the function shares the account's unreserved pool. */
    public FunctionSpec(
            String handlerName,
            FunctionRuntime runtime,
            Duration timeout,
            int memoryMb,
            Map<String, String> environment,
            String description) {
        this(handlerName, runtime, timeout, memoryMb, environment, description, Optional.empty());
    }

    /** This spec with {@code value} reserved (and so at most {@code value} instances at once). */
    public FunctionSpec withReservedConcurrency(int value) {
        return new FunctionSpec(handlerName, runtime, timeout, memoryMb, environment, description, Optional.of(value));
    }
}
