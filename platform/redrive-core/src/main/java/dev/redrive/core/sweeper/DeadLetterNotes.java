package dev.redrive.core.sweeper;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.sweeper.ArrivedDeadLetter.AttachedFailure;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Failure metadata kept beside a dead letter that has no room for it on the message. A consumer attaches its failure
 * to a dead letter as one message attribute; SQS allows ten a message, so a message that came with ten (or one whose
 * body goes by claim check with nine, the pointer's marker being the tenth) leaves none. Its consumer then keeps the
 * failure here, keyed by the dead-letter queue and the dead letter's fingerprint (its body and every attribute with its
 * type, exactly as sent), before it sends it; the sweeper, receiving a dead letter without the attribute, looks its
 * fingerprint up and classifies it with the failure found, not as POISON.
 *
 * <p>Why beside the message, not on the claim: a claim is keyed by the producer key read from the payload, and the
 * failures that most need their reason have no claim (a body that is not JSON, a key that is not a key, a claim check
 * whose payload is gone), or a claim that tells another story (a payload that reuses another one's key: the claim is
 * the other payload's, applied). The message itself is the one thing both sides see.
 *
 * <p>Identical copies (the same body and attributes) dead-lettered from one queue share a note; the last one kept
 * wins, which can only be the same message's failure or an identical message's. Each copy is still quarantined on its
 * own (by its message id in the dead-letter queue).
 */
public interface DeadLetterNotes {

    /** No notes: a dead letter without room for its metadata goes without it, and the sweeper infers its class. */
    DeadLetterNotes NONE = new DeadLetterNotes() {
        @Override
        public void keep(NoteKey key, AttachedFailure failure, Instant expiresAt) {
            throw new UnsupportedOperationException("no store for dead-letter notes is configured");
        }

        @Override
        public Optional<AttachedFailure> find(NoteKey key, Instant now) {
            return Optional.empty();
        }
    };

    /**
     * Keeps {@code failure} for the dead letter {@code key} until {@code expiresAt} (long enough for the sweeper to
     * read it: the claims' TTL); a later note of the same key replaces it.
     *
     * @throws RuntimeException when it could not be kept (the dead letter is then not sent: it stays in its source)
     */
    void keep(NoteKey key, AttachedFailure failure, Instant expiresAt);

    /** The failure kept for {@code key}; empty when none was kept, or it has expired by {@code now}. */
    Optional<AttachedFailure> find(NoteKey key, Instant now);

    /** The failures kept for {@code keys} (those found), in as few reads as the store allows. */
    default Map<NoteKey, AttachedFailure> findAll(Collection<NoteKey> keys, Instant now) {
        Map<NoteKey, AttachedFailure> found = new LinkedHashMap<>();
        for (NoteKey key : keys) {
            find(key, now).ifPresent(f -> found.put(key, f));
        }
        return found;
    }

    /**
     * Which dead letter a note is for.
     *
     * @param deadLetterQueue the dead-letter queue's name
     * @param fingerprint     SHA-256 (hex) of the dead letter's body and every attribute with its type ({@link #of})
     */
    record NoteKey(String deadLetterQueue, String fingerprint) {
        public NoteKey {
            Objects.requireNonNull(deadLetterQueue, "deadLetterQueue");
            Objects.requireNonNull(fingerprint, "fingerprint");
        }

        /**
         * The key of a dead letter of {@code deadLetterQueue} with this body and these attributes, exactly as it is
         * sent and received (attribute order does not matter; each name, data type and value does).
         */
        public static NoteKey of(String deadLetterQueue, String body, Map<String, MessageAttribute> attributes) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                field(out, body.getBytes(StandardCharsets.UTF_8));
                for (Map.Entry<String, MessageAttribute> a : new TreeMap<>(attributes).entrySet()) {
                    field(out, a.getKey().getBytes(StandardCharsets.UTF_8));
                    field(out, a.getValue().dataType().getBytes(StandardCharsets.UTF_8));
                    byte[] binary = a.getValue().binaryValue();
                    out.writeBoolean(binary != null);
                    String text = a.getValue().stringValue();
                    field(
                            out,
                            binary != null
                                    ? binary
                                    : text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                return new NoteKey(
                        deadLetterQueue,
                        HexFormat.of()
                                .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray())));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is required by every Java platform", e);
            }
        }

        private static void field(DataOutputStream out, byte[] value) throws IOException {
            out.writeInt(value.length);
            out.write(value);
        }
    }
}
