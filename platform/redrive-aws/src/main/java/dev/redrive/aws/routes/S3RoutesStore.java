package dev.redrive.aws.routes;

import dev.redrive.schema.RoutesStore;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;

/**
 * The routes document's object in S3 ({@code REDRIVE_ROUTES=s3://bucket/key}): one GetObject at start (the sweeper at
 * each cold start, the CLI once per run). The bucket is the platform's versioned, KMS-encrypted one; the reader needs
 * {@code s3:GetObject} on the key and {@code kms:Decrypt} on the bucket's key.
 */
public final class S3RoutesStore implements RoutesStore {

    private final S3Client s3;

    public S3RoutesStore(S3Client s3) {
        this.s3 = s3;
    }

    @Override
    public String read(String bucket, String key) {
        try {
            return s3.getObjectAsBytes(
                            GetObjectRequest.builder().bucket(bucket).key(key).build())
                    .asString(StandardCharsets.UTF_8);
        } catch (SdkException e) {
            throw new IllegalStateException(
                    "the routes document s3://" + bucket + "/" + key + " cannot be read (" + e.getMessage()
                            + "); check REDRIVE_ROUTES and that this role may s3:GetObject it and kms:Decrypt its key",
                    e);
        }
    }
}
