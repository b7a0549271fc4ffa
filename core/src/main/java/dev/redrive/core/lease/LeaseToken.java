package dev.redrive.core.lease;

import java.util.Objects;

/** Proof of holding a named lease: its name and the fencing token it was granted with. */
public record LeaseToken(String name, long token) {
    public LeaseToken {
        Objects.requireNonNull(name, "name");
        if (token < 1) {
            throw new IllegalArgumentException("fencing tokens start at 1");
        }
    }
}
