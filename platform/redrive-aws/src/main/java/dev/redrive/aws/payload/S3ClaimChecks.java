package dev.redrive.aws.payload;

import dev.redrive.core.payload.ClaimCheckForbidden;
import dev.redrive.core.payload.ClaimCheckMissing;
import dev.redrive.core.payload.ClaimChecks;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * Claim checks on S3 in the Amazon SQS Extended Client Library's format ({@link ClaimCheckPointer}). Payloads are read
 * only from the buckets this store is told about (a pointer is producer input: one naming another bucket, the archive
 * say, is refused as a SCHEMA failure, and IAM grants no more either); payloads checked in go to the first of them,
 * under a random key as the library makes, KMS-encrypted. A payload that is gone is a {@link ClaimCheckMissing} (404);
 * one S3 refuses to read (403 AccessDenied) a {@link ClaimCheckForbidden}: gone or forbidden.
 */
public final class S3ClaimChecks implements ClaimChecks {

    /**
     * S3's error code for a refused read. A GetObject of a missing key by a role without {@code s3:ListBucket} on the
     * bucket gets it too (S3's GetObject documentation, "Permissions": "If you don't have the s3:ListBucket permission,
     * Amazon S3 returns an HTTP status code 403 Access Denied error"), so it means gone or forbidden: a {@link
     * ClaimCheckForbidden}. Other 403s (an expired token, a bad signature) say nothing about the object and are thrown
     * as they are.
     */
    static final String ACCESS_DENIED = "AccessDenied";

    private final S3Client s3;
    private final String bucket;
    private final Set<String> readable;
    private final String keyPrefix;
    private final String kmsKeyId;

    /**
     * @param bucket   where payloads are checked in, and read from
     * @param others   further buckets claim checks may be read from (the producers' own)
     * @param keyPrefix prefix of the keys of payloads checked in ("" for none)
     * @param kmsKeyId the KMS key payloads checked in are encrypted with; null for the bucket's default
     */
    public S3ClaimChecks(S3Client s3, String bucket, Set<String> others, String keyPrefix, String kmsKeyId) {
        this.s3 = s3;
        this.bucket = bucket;
        this.readable = union(bucket, others);
        this.keyPrefix = keyPrefix == null ? "" : keyPrefix;
        this.kmsKeyId = kmsKeyId;
    }

    public S3ClaimChecks(S3Client s3, String bucket) {
        this(s3, bucket, Set.of(), "", null);
    }

    @Override
    public boolean isClaimCheck(String body, Map<String, String> attributes) {
        return ClaimCheckPointer.marks(attributes.keySet());
    }

    @Override
    public String payloadOf(String body, Map<String, String> attributes) {
        if (!isClaimCheck(body, attributes)) {
            return body;
        }
        ClaimCheckPointer pointer = pointerOf(body);
        try {
            return s3.getObjectAsBytes(b -> b.bucket(pointer.bucket()).key(pointer.key()))
                    .asUtf8String();
        } catch (NoSuchKeyException | NoSuchBucketException gone) {
            throw new ClaimCheckMissing(
                    "the payload of this claim check, " + pointer + ", is gone (" + code(gone)
                            + "): deleted or expired before the message was read",
                    gone);
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw new ClaimCheckMissing("the payload of this claim check, " + pointer + ", is gone (HTTP 404)", e);
            }
            if (e.statusCode() == 403 && ACCESS_DENIED.equals(code(e))) {
                // Kept short: a failure's reason holds 300 characters, and the pointer is in it.
                throw new ClaimCheckForbidden(
                        "the payload of claim check " + pointer + ": AccessDenied (HTTP 403), so it is gone (S3 "
                                + "answers 403, not 404, for a missing key to a role without s3:ListBucket on the "
                                + "bucket) or this role may not read it (a bucket policy, a KMS key)",
                        e);
            }
            throw e;
        }
    }

    @Override
    public ClaimCheck checkIn(String payload) {
        ClaimCheckPointer pointer = new ClaimCheckPointer(bucket, keyPrefix + UUID.randomUUID());
        PutObjectRequest.Builder put = PutObjectRequest.builder()
                .bucket(pointer.bucket())
                .key(pointer.key())
                .contentType("text/plain; charset=utf-8");
        if (kmsKeyId != null && !kmsKeyId.isBlank()) {
            put.serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(kmsKeyId);
        }
        s3.putObject(put.build(), RequestBody.fromString(payload));
        return new ClaimCheck(
                pointer.toBody(), Map.of(ClaimCheckPointer.SIZE_ATTRIBUTE, ClaimCheckPointer.sizeOf(payload)));
    }

    @Override
    public void discard(String body, Map<String, String> attributes) {
        if (!isClaimCheck(body, attributes)) {
            return;
        }
        Optional<ClaimCheckPointer> pointer = ClaimCheckPointer.parse(body);
        if (pointer.isPresent() && readable.contains(pointer.get().bucket())) {
            s3.deleteObject(
                    b -> b.bucket(pointer.get().bucket()).key(pointer.get().key()));
        }
    }

    /** {@code s3://bucket/key}, from the pointer alone. */
    @Override
    public Optional<String> locationOf(String body, Map<String, String> attributes) {
        return isClaimCheck(body, attributes)
                ? ClaimCheckPointer.parse(body).map(ClaimCheckPointer::toString)
                : Optional.empty();
    }

    private ClaimCheckPointer pointerOf(String body) {
        ClaimCheckPointer pointer = ClaimCheckPointer.parse(body)
                .orElseThrow(() -> new ClaimCheckMissing("the message is marked as a claim check ("
                        + ClaimCheckPointer.SIZE_ATTRIBUTE + ") but its body is not a pointer of the SQS Extended "
                        + "Client Library's format"));
        if (!readable.contains(pointer.bucket())) {
            throw new ClaimCheckMissing("this claim check points at bucket " + pointer.bucket()
                    + ", which is not one claim checks are read from (" + readable + ")");
        }
        return pointer;
    }

    private static String code(S3Exception e) {
        return e.awsErrorDetails() == null
                ? "HTTP " + e.statusCode()
                : e.awsErrorDetails().errorCode();
    }

    private static Set<String> union(String bucket, Set<String> others) {
        java.util.Set<String> all = new java.util.HashSet<>(others == null ? Set.of() : others);
        all.add(bucket);
        return Set.copyOf(all);
    }
}
