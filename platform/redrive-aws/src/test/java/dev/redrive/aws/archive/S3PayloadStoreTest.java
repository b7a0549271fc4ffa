package dev.redrive.aws.archive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.replay.PayloadStore;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.replay.PayloadStoreContract;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/** The payload store contract on S3 (a fresh bucket per test), and its promise of KMS encryption. */
class S3PayloadStoreTest extends PayloadStoreContract {

    static final String KEY_ID = "arn:aws:kms:us-east-1:000000000000:key/redrive-test-payloads";

    private final LocalAws aws = LocalAws.shared();
    private String bucket;

    @Override
    protected PayloadStore newStore() {
        bucket = "payloads-" + UUID.randomUUID().toString().substring(0, 8);
        aws.s3().createBucket(b -> b.bucket(bucket));
        return new S3PayloadStore(aws.s3(), bucket, KEY_ID);
    }

    @Test
    void payloadsAreWrittenEncryptedWithTheArchiveKey() {
        String ref = store.put("q-" + UUID.randomUUID(), "{\"card\":\"secret\"}");

        HeadObjectResponse head = aws.s3().headObject(b -> b.bucket(bucket).key(ref));

        assertThat(head.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(head.ssekmsKeyId()).isEqualTo(KEY_ID);
    }
}
