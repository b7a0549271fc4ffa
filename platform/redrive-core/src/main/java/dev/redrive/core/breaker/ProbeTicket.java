package dev.redrive.core.breaker;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The probe lease a replay took for the message it sends (issue 36, item 5): carried by that message as one string
 * attribute {@value #ATTRIBUTE} ({@code <dependency>:<token>}), so the consumer that receives it is the probe that lease
 * stands for ({@link CircuitBreakerRules#admit(BreakerState, Instant, Optional)}), instead of being refused by it. A
 * ticket whose token is not the breaker's live probe lease any more admits nothing more than any message.
 *
 * @param dependency the dependency whose breaker the lease is on
 * @param token      the token of the HALF_OPEN breaker the lease wrote
 */
public record ProbeTicket(String dependency, long token) {

    public static final String ATTRIBUTE = "redrive-probe";

    public ProbeTicket {
        Objects.requireNonNull(dependency, "dependency");
        if (dependency.isBlank() || token <= 0) {
            throw new IllegalArgumentException(
                    "a probe ticket names a dependency and a token of 1 or more: " + dependency + ":" + token);
        }
    }

    /** The ticket of a lease written as {@code halfOpen} on {@code dependency}'s breaker. */
    public static ProbeTicket of(String dependency, BreakerState halfOpen) {
        if (halfOpen.status() != BreakerState.Status.HALF_OPEN) {
            throw new IllegalArgumentException("a probe ticket is for a HALF_OPEN breaker, not " + halfOpen.status());
        }
        return new ProbeTicket(dependency, halfOpen.token());
    }

    public String encode() {
        return dependency + ":" + token;
    }

    /** The ticket in an attribute's value; empty when there is none or it is not one. */
    public static Optional<ProbeTicket> decode(String value) {
        if (value == null) {
            return Optional.empty();
        }
        int at = value.lastIndexOf(':');
        if (at <= 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ProbeTicket(value.substring(0, at), Long.parseLong(value.substring(at + 1))));
        } catch (IllegalArgumentException notATicket) { // NumberFormatException included
            return Optional.empty();
        }
    }
}
