/**
 * The circuit breaker per dependency (design rule 17), as pure rules: {@link dev.redrive.core.breaker.FailureTracker}
 * decides in each sandbox when to open it (consecutive TRANSIENT failures, or a failure rate over a window), and
 * {@link dev.redrive.core.breaker.CircuitBreakerRules} gives the shared state's transitions: open refuses and defers by
 * the rest of its period (at most SQS's 12 hours), one probe at a time by a lease with a fencing token, a failed probe
 * doubles the period up to a cap. The store that shares the state between sandboxes and the consumers' use of it are
 * not wired yet.
 */
package dev.redrive.core.breaker;
