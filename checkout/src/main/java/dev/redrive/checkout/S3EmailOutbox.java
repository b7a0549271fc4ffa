package dev.redrive.checkout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The mail provider's stand-in: each email is an S3 object keyed by its idempotency key and created with
 * {@code If-None-Match: *}, so the provider itself refuses a second email under the same key (HTTP 412), the way a
 * payment API refuses a reused idempotency key. A refusal means "already sent": one email per key, whatever the
 * number of deliveries — even when an earlier attempt's response was lost after the email went out.
 */
public final class S3EmailOutbox implements EmailOutbox {

    public static final String PREFIX = "emails/";

    private final S3Client s3;
    private final String bucket;
    private final ObjectMapper json;

    public S3EmailOutbox(S3Client s3, String bucket, ObjectMapper json) {
        this.s3 = s3;
        this.bucket = bucket;
        this.json = json;
    }

    /** The object key an idempotency key maps to: URL-safe, one per key. */
    public static String objectKey(String idempotencyKey) {
        return PREFIX + URLEncoder.encode(idempotencyKey, StandardCharsets.UTF_8) + ".json";
    }

    @Override
    public String send(Email email) {
        String key = objectKey(email.idempotencyKey());
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("idempotencyKey", email.idempotencyKey());
        document.put("fencingToken", email.fencingToken());
        document.put("to", email.to());
        document.put("subject", email.subject());
        document.put("body", email.body());
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("email did not serialize", e);
        }
        try {
            // No encryption header: the bucket's default encryption (the stack's KMS key) applies.
            s3.putObject(
                    b -> b.bucket(bucket)
                            .key(key)
                            .contentType("application/json")
                            .ifNoneMatch("*")
                            .metadata(Map.of(
                                    "idempotency-key",
                                    email.idempotencyKey(),
                                    "fencing-token",
                                    Long.toString(email.fencingToken()))),
                    RequestBody.fromBytes(bytes));
            return "s3://" + bucket + "/" + key;
        } catch (S3Exception e) {
            if (e.statusCode() == 412) {
                return "already sent: s3://" + bucket + "/" + key;
            }
            throw e;
        }
    }
}
