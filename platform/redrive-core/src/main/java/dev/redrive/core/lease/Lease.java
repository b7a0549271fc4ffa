package dev.redrive.core.lease;

import java.time.Instant;
import java.util.Objects;

/**
 * A held lease: a named, expiring right to act, with a fencing token that grows on every grant.
 *
 * @param name      what is leased ("sweeper#orders-dlq")
 * @param owner     who holds it (for operators: a function instance, a person)
 * @param token     the fencing token; writes made under the lease carry it
 * @param expiresAt when it lapses unless released earlier
 */
public record Lease(String name, String owner, long token, Instant expiresAt) {
    public Lease {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    public LeaseToken fence() {
        return new LeaseToken(name, token, expiresAt);
    }

    public boolean expired(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
