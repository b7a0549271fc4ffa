package dev.redrive.core.replay;

import java.time.Instant;

/** The idempotency check of a replay: the same claim lookup the consumer makes, before anything is sent. */
public interface IdempotencyGate {

    Verdict check(String consumer, String body, Instant now);

    /** What the lookup found. */
    sealed interface Verdict {}

    /** Not applied (no claim, or only failed attempts): safe to send. */
    record NotApplied(String key) implements Verdict {}

    /** The effect was applied under this key: nothing to send. */
    record AlreadyApplied(String key, long fencingToken) implements Verdict {}

    /** A worker holds a live lease on the key right now: try again later. */
    record InProgress(String key, Instant leaseExpiresAt) implements Verdict {}

    /** Sending would be unsafe (the key was applied with different content, or cannot be read). */
    record Unsafe(String reason) implements Verdict {}
}
