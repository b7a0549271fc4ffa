package dev.redrive.core.payload;

import dev.redrive.core.consumer.MessageAttribute;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Payloads too large for a queue message (SQS takes up to 1 MiB) travel by <b>claim check</b>: the payload is kept
 * aside (on AWS: an S3 object) and the message carries a pointer to it instead, marked by a message attribute. On AWS
 * the format is the Amazon SQS Extended Client Library's, so producers that already use that library interoperate.
 *
 * <p>Where a claim check goes: the consumer reads the payload through it ({@link #payloadOf}); the quarantine keeps the
 * pointer as it came; a replay sends the pointer again; the archive stores the whole payload. A pointer whose payload is
 * gone is a {@link ClaimCheckMissing} (SCHEMA): no retry can bring it back.
 */
public interface ClaimChecks {

    /** No claim checks: every body is the payload itself. */
    ClaimChecks NONE = new ClaimChecks() {
        @Override
        public boolean isClaimCheck(String body, Map<String, String> attributes) {
            return false;
        }

        @Override
        public String payloadOf(String body, Map<String, String> attributes) {
            return body;
        }

        @Override
        public ClaimCheck checkIn(String payload) {
            throw new UnsupportedOperationException("no claim-check store is configured");
        }

        @Override
        public void discard(String body, Map<String, String> attributes) {}
    };

    /** Whether a message with this body and these (string) attributes is a claim check rather than the payload. */
    boolean isClaimCheck(String body, Map<String, String> attributes);

    /**
     * The payload of a message: read through the pointer when it is a claim check, the body itself otherwise.
     *
     * @throws ClaimCheckMissing when the pointer is malformed or what it points at is gone (SCHEMA); a {@link
     *                           ClaimCheckForbidden} when the store refused the read (gone or forbidden)
     * @throws RuntimeException  anything else (the store unreachable, throttled): worth a retry
     */
    String payloadOf(String body, Map<String, String> attributes);

    /** Keeps {@code payload} aside and returns the claim check to send in its place. */
    ClaimCheck checkIn(String payload);

    /** Deletes what a claim check points at; a no-op for a message that is not one, or whose payload is gone. */
    void discard(String body, Map<String, String> attributes);

    /**
     * Where a claim check's payload is kept (on S3 {@code s3://bucket/key}), read from the pointer alone, without the
     * payload: the same in every copy of the message (a redelivery, a batch that comes back whole, a replay of its
     * dead letter), and different for every payload checked in. Empty for a message that is no claim check, or whose
     * pointer cannot be read. The consumer keys on it what it must know once the payload is gone.
     */
    default Optional<String> locationOf(String body, Map<String, String> attributes) {
        return Optional.empty();
    }

    /**
     * A body as kept, read through this store: the one reading of a stored dead letter that the replay checks and the
     * archive share.
     *
     * @param stored     the body as kept (for a claim check, the pointer)
     * @param claimCheck whether it is a claim check
     * @param payload    what a consumer would parse: the body itself, or the payload behind the pointer; null when
     *                   that payload is gone
     * @param missing    why it is gone ({@link ClaimCheckMissing}'s message); null when it is not
     * @param forbidden  whether the store only refused to read it ({@link ClaimCheckForbidden}: gone, or not readable
     *                   by this reader, the answer does not say which)
     */
    record Read(String stored, boolean claimCheck, String payload, String missing, boolean forbidden) {

        /** A read that was not refused. */
        public Read(String stored, boolean claimCheck, String payload, String missing) {
            this(stored, claimCheck, payload, missing, false);
        }
    }

    /**
     * Reads {@code body} through this store.
     *
     * @throws RuntimeException when the store cannot be read now (unreachable, throttled): worth a retry
     */
    default Read read(String body, Map<String, String> attributes) {
        if (!isClaimCheck(body, attributes)) {
            return new Read(body, false, body, null);
        }
        try {
            return new Read(body, true, payloadOf(body, attributes), null);
        } catch (ClaimCheckMissing gone) {
            return new Read(body, true, null, gone.getMessage(), gone instanceof ClaimCheckForbidden);
        }
    }

    /**
     * A claim check as it is sent: the pointer body and the attributes that mark it (to add to the message's own).
     *
     * @param body       the pointer
     * @param attributes the marking attributes (on SQS: the payload's size in bytes)
     */
    record ClaimCheck(String body, Map<String, String> attributes) {
        public ClaimCheck {
            Objects.requireNonNull(body, "body");
            attributes = Map.copyOf(attributes);
        }

        /** The marking attributes as they are sent: Numbers (a size in bytes), as the Extended Client Library does. */
        public Map<String, MessageAttribute> messageAttributes() {
            Map<String, MessageAttribute> typed = new LinkedHashMap<>();
            attributes.forEach((k, v) -> typed.put(k, MessageAttribute.ofNumber(v)));
            return typed;
        }
    }
}
