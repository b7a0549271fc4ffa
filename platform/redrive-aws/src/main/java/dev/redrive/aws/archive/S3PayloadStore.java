package dev.redrive.aws.archive;

import dev.redrive.core.replay.PayloadStore;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/** Large dead-letter payloads on S3 ({@code bodies/<quarantine id>}, an upcast one at {@code bodies/<quarantine id>/v<version>}), KMS-encrypted like the archive. */
public final class S3PayloadStore implements PayloadStore {

    private final S3Client s3;
    private final String bucket;
    private final String kmsKeyId;

    public S3PayloadStore(S3Client s3, String bucket, String kmsKeyId) {
        this.s3 = s3;
        this.bucket = bucket;
        this.kmsKeyId = kmsKeyId;
    }

    @Override
    public String put(String quarantineId, String body) {
        String key = "bodies/" + quarantineId;
        PutObjectRequest.Builder put = PutObjectRequest.builder()
                .bucket(bucket)
                .key(key)
                .contentType("application/octet-stream")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS);
        if (kmsKeyId != null && !kmsKeyId.isBlank()) {
            put.ssekmsKeyId(kmsKeyId);
        }
        s3.putObject(put.build(), RequestBody.fromString(body));
        return key;
    }

    @Override
    public String get(String reference) {
        return s3.getObjectAsBytes(b -> b.bucket(bucket).key(reference)).asUtf8String();
    }
}
