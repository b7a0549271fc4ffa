package dev.redrive.quarkus;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A priming step of an application's own, for a handler that is not an {@link IdempotentSqsHandler} (an HTTP or a
 * stream-triggered function in the same artifact): a CDI bean of this type runs in {@link SnapStartPriming} before the
 * snapshot of every function whose handler it {@linkplain #primes(String) primes}. It must leave nothing outside the
 * process: no request, no write, no connection.
 */
public interface PrimingStep {

    /** Whether this step primes the function whose {@code quarkus.lambda.handler} is {@code handler}. */
    boolean primes(String handler);

    /**
     * Runs on made-up input: typically reads the event the handler's trigger delivers with {@code events}, the mapper
     * the Lambda runtime reads events with, parses it as the handler does and writes the kind of answer it gives.
     */
    void prime(String handler, ObjectMapper events) throws Exception;
}
