/**
 * The circuit breaker per dependency (design rule 17), as pure rules: {@link dev.redrive.core.breaker.FailureTracker}
 * decides in each sandbox when to open it (consecutive TRANSIENT failures, or a failure rate over a window), and
 * {@link dev.redrive.core.breaker.CircuitBreakerRules} gives the shared state's transitions: open refuses and defers by
 * the rest of its period (at most SQS's 12 hours), one probe at a time by a lease with a fencing token, a failed probe
 * doubles the period up to a cap. {@link dev.redrive.core.breaker.BreakerStore} shares the state between sandboxes
 * (written only on transitions, each conditional on its token; on AWS {@code DynamoDbBreakerStore} in the control
 * table). {@link dev.redrive.core.breaker.CircuitBreaker} is one sandbox's handle on it: cached for a few seconds, writing
 * only transitions, failing open when the store fails, reporting to a {@link dev.redrive.core.breaker.BreakerListener}.
 * {@code dev.redrive.core.consumer.EffectBreakers} puts it in front of external effects: {@code MessageProcessor} asks
 * for a permit after the claim and before the effect, and defers a refused message.
 */
package dev.redrive.core.breaker;
