package dev.redrive.core.lease;

import java.time.Instant;
import java.util.Objects;

/**
 * Proof of holding a named lease: its name, the fencing token it was granted with, and when it lapses. A holder knows
 * its own lease's end (it chose it), so a write under a lapsed token is refused without asking the lease store: no
 * one else can be granted the lease before it lapses, and once it has, every write this token makes is stale.
 */
public record LeaseToken(String name, long token, Instant expiresAt) {
    public LeaseToken {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (token < 1) {
            throw new IllegalArgumentException("fencing tokens start at 1");
        }
    }

    /** Whether the lease this token was granted with has lapsed at {@code now}: nothing may be written under it. */
    public boolean lapsed(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
