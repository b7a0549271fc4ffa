package dev.redrive.core.breaker;

import java.time.Duration;

/** What a breaker lets a call do. */
public sealed interface Admission {

    /** Closed: call the dependency. */
    record Call() implements Admission {}

    /**
     * The open period is over (or the last probe's lease lapsed): this caller may be the one probe, once it has written
     * {@code halfOpen} conditionally on {@code expectedToken}. Losing that write means another sandbox probes: refuse.
     */
    record Probe(long expectedToken, BreakerState halfOpen) implements Admission {}

    /**
     * Half-open, and this caller carries the ticket of the live probe lease (a replay took it for this message): it is
     * that probe, and writes nothing to become it; its answer is written as any probe's, conditionally on
     * {@code halfOpen}'s token.
     */
    record Probing(BreakerState halfOpen) implements Admission {}

    /** Open, or half-open with a live probe: fail fast without calling, and defer the message by {@code deferFor}. */
    record Refuse(Duration deferFor, BreakerState state) implements Admission {}
}
