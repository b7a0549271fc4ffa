package dev.redrive.core.replay;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** The idempotency check of a replay: the same claim lookup the consumer makes, before anything is sent. */
public interface IdempotencyGate {

    Verdict check(String consumer, String body, Instant now);

    /**
     * The same check for a dead letter that arrived at {@code deadLetteredAt}: a gate that knows how long claims
     * count refuses, rather than call "not applied", a replay whose claim may have expired.
     */
    default Verdict check(String consumer, String body, Instant deadLetteredAt, Instant now) {
        return check(consumer, body, now);
    }

    /**
     * The same check with the dead letter's string message attributes, for a consumer whose key is a message attribute
     * rather than a field of the body. The default ignores them.
     */
    default Verdict check(
            String consumer, String body, Map<String, String> attributes, Instant deadLetteredAt, Instant now) {
        return check(consumer, body, deadLetteredAt, now);
    }

    /**
     * The claim key ({@code <consumer>#<producer key>}) the consumer reads from {@code body} with {@code attributes},
     * without looking the claim up; empty when it cannot be read. An edited replay must keep the original's key, and a
     * gate that cannot tell (this default) refuses every edit.
     */
    default Optional<String> keyOf(String consumer, String body, Map<String, String> attributes) {
        return Optional.empty();
    }

    /** What the lookup found. */
    sealed interface Verdict {}

    /** Not applied (no claim, or only failed attempts): safe to send. */
    record NotApplied(String key) implements Verdict {}

    /** The effect was applied under this key: nothing to send. */
    record AlreadyApplied(String key, long fencingToken) implements Verdict {}

    /** A worker holds a live lease on the key right now: try again later. */
    record InProgress(String key, Instant leaseExpiresAt) implements Verdict {}

    /**
     * Sending would be unsafe (the key was applied with different content, or cannot be read, or its claim may have
     * expired so whether it was applied cannot be told).
     */
    record Unsafe(String reason) implements Verdict {}
}
