package dev.redrive.checkout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * The mail provider's stand-in: each email is an S3 object keyed by its idempotency key, so a repeat overwrites the
 * same object with the same content: one email per key, whatever the number of deliveries.
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
        return PREFIX + java.net.URLEncoder.encode(idempotencyKey, StandardCharsets.UTF_8) + ".json";
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
        s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/json")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS)
                .metadata(Map.of("idempotency-key", email.idempotencyKey(),
                        "fencing-token", Long.toString(email.fencingToken()))),
                RequestBody.fromBytes(bytes));
        return "s3://" + bucket + "/" + key;
    }
}
