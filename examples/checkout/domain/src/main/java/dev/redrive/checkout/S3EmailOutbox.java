package dev.redrive.checkout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.clients.EffectCallTimeouts;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.failure.PermanentFailure;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The mail provider's stand-in: each email is an S3 object keyed by its idempotency key and created with
 * {@code If-None-Match: *}, so the provider itself refuses a second email under the same key (HTTP 412), the way a
 * payment API refuses a reused idempotency key. A refusal means "already sent" only once the email there is confirmed
 * to be this one: its metadata carries a fingerprint of the key and content ({@value #FINGERPRINT}), which must match
 * (a stale or concurrent writer of the same email matches; an email with other content, or an object the outbox did
 * not write, is a PERMANENT {@code EmailConflict} for a person to look at, never silently "sent"). One email per key,
 * whatever the number of deliveries — even when an earlier attempt's response was lost after the email went out.
 *
 * <p>Every call is bounded by the effect's deadline ({@link Email#timeLeft}; per-request {@code apiCallTimeout} and
 * {@code apiCallAttemptTimeout}) and none starts after it. The create-only write is what enforces the claim's fencing
 * here: a worker frozen past its lease and thawed after another worker sent the email gets a 412 and finds that email,
 * so the provider never holds two emails for one key, whoever was late.
 */
public final class S3EmailOutbox implements EmailOutbox {

    public static final String PREFIX = "emails/";
    /** The metadata holding the fingerprint of the email's key and content (never the content itself). */
    public static final String FINGERPRINT = "payload-sha256";
    /** S3's limit on an object key, in UTF-8 bytes. */
    static final int MAX_OBJECT_KEY_BYTES = 1024;

    private final S3Client s3;
    private final String bucket;
    private final ObjectMapper json;

    public S3EmailOutbox(S3Client s3, String bucket, ObjectMapper json) {
        this.s3 = s3;
        this.bucket = bucket;
        this.json = json;
    }

    /**
     * The object key an idempotency key maps to: URL-safe, one per key. A key whose encoded form would pass S3's
     * 1024-byte limit (a long producer key of multi-byte characters) maps to its SHA-256 instead; an encoded key always
     * holds {@code %23} (the {@code #} of {@code consumer#key}), so the two forms never meet.
     */
    public static String objectKey(String idempotencyKey) {
        String encoded = PREFIX + URLEncoder.encode(idempotencyKey, StandardCharsets.UTF_8) + ".json";
        if (encoded.length() <= MAX_OBJECT_KEY_BYTES) { // URL-encoded text is ASCII: one byte per character
            return encoded;
        }
        return PREFIX + "sha256-" + PayloadFingerprint.of(idempotencyKey) + ".json";
    }

    @Override
    public String send(Email email) {
        String key = objectKey(email.idempotencyKey());
        String fingerprint = fingerprint(email.idempotencyKey(), email.to(), email.subject(), email.body());
        byte[] bytes = document(email);
        EffectCallTimeouts calls = EffectCallTimeouts.within(
                email.timeLeft(),
                ConfirmationEmailConsumer.DEPENDENCY,
                s3.serviceClientConfiguration().overrideConfiguration());
        try {
            // No encryption header: the bucket's default encryption (the stack's KMS key) applies.
            s3.putObject(
                    b -> b.bucket(bucket)
                            .key(key)
                            .contentType("application/json")
                            .ifNoneMatch("*")
                            .metadata(Map.of(
                                    "idempotency-key",
                                    URLEncoder.encode(email.idempotencyKey(), StandardCharsets.UTF_8),
                                    "fencing-token",
                                    Long.toString(email.fencingToken()),
                                    FINGERPRINT,
                                    fingerprint))
                            .overrideConfiguration(calls.next("the email")),
                    RequestBody.fromBytes(bytes));
            return "s3://" + bucket + "/" + key;
        } catch (S3Exception e) {
            if (e.statusCode() == 412) {
                return confirmAlreadySent(key, email, fingerprint, calls);
            }
            throw e;
        }
    }

    /** The create-only write was refused: "already sent" if the email there is this one, else a conflict. */
    private String confirmAlreadySent(String key, Email email, String fingerprint, EffectCallTimeouts calls) {
        Map<String, String> metadata = s3.headObject(b -> b.bucket(bucket)
                        .key(key)
                        .overrideConfiguration(calls.next("reading back the email already sent")))
                .metadata();
        String stored = metadata.get(FINGERPRINT);
        if (stored == null) {
            stored = fingerprintOfDocument(key, calls);
        }
        if (!fingerprint.equals(stored)) {
            throw new PermanentFailure(
                    "EmailConflict",
                    "s3://" + bucket + "/" + key + " already holds an email with other content, or an object the "
                            + "outbox did not write, under " + email.idempotencyKey()
                            + "; nothing was sent: compare it with the order and archive or replay by hand");
        }
        return "already sent: s3://" + bucket + "/" + key + " (token " + metadata.getOrDefault("fencing-token", "?")
                + ")";
    }

    /** The fingerprint of an email written before fingerprints were kept in metadata, from its document. */
    private String fingerprintOfDocument(String key, EffectCallTimeouts calls) {
        byte[] stored = s3.getObjectAsBytes(b -> b.bucket(bucket)
                        .key(key)
                        .overrideConfiguration(calls.next("reading back the email already sent")))
                .asByteArray();
        try {
            JsonNode d = json.readTree(stored);
            List<String> fields = Arrays.asList("idempotencyKey", "to", "subject", "body");
            if (d == null || !fields.stream().allMatch(f -> d.path(f).isTextual())) {
                return null;
            }
            return fingerprint(
                    d.get("idempotencyKey").asText(),
                    d.get("to").asText(),
                    d.get("subject").asText(),
                    d.get("body").asText());
        } catch (IOException notJson) {
            return null;
        }
    }

    private byte[] document(Email email) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("idempotencyKey", email.idempotencyKey());
        document.put("fencingToken", email.fencingToken());
        document.put("to", email.to());
        document.put("subject", email.subject());
        document.put("body", email.body());
        try {
            return json.writeValueAsBytes(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("email did not serialize", e);
        }
    }

    /** Key and content, not the token: every writer of the same email has the same fingerprint. */
    private String fingerprint(String idempotencyKey, String to, String subject, String body) {
        try {
            return PayloadFingerprint.of(json.writeValueAsString(List.of(idempotencyKey, to, subject, body)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("email did not serialize", e);
        }
    }
}
