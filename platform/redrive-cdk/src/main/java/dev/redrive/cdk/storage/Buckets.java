package dev.redrive.cdk.storage;

import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.StorageClass;
import software.amazon.awscdk.services.s3.Transition;
import software.constructs.Construct;

/**
 * The S3 buckets: KMS-encrypted with the customer-managed key (bucket key on), all public access blocked, TLS only,
 * and retained when the stack is deleted or a bucket replaced (they hold dead letters and emails, which outlive a
 * deployment), but not when their create rolls back ({@code RETAIN_ON_UPDATE_OR_DELETE}: nothing is orphaned by a
 * failed first deploy). Names are generated, so a kept bucket never blocks a redeploy.
 *
 * @param archive     archived dead letters: versioned, to Glacier Instant Retrieval after 30 days, expired after
 *                    the configured days
 * @param claimChecks payloads larger than a queue message, each kept while any copy of its message can come back:
 *                    the stack adds the lifecycle rule that expires them after the claim TTL ({@link
 *                    #expireClaimChecks})
 */
public record Buckets(Bucket archive, Bucket claimChecks) {

    /** The id of the claim-check bucket's lifecycle rule. */
    public static final String CLAIM_CHECK_EXPIRY_RULE = "claim-checks-expire-after-the-claim-ttl";

    /** Days before archived objects move to Glacier Instant Retrieval. */
    public static final int ARCHIVE_TRANSITION_DAYS = 30;

    /** Creates the buckets directly in {@code scope}; names are left to CloudFormation (they are global). */
    public static Buckets create(Construct scope, IKey key, int archiveExpiryDays) {
        if (archiveExpiryDays <= ARCHIVE_TRANSITION_DAYS) {
            throw new IllegalArgumentException(
                    "archive expiry of " + archiveExpiryDays + " days must be after the " + ARCHIVE_TRANSITION_DAYS
                            + "-day transition to Glacier Instant Retrieval (-c archiveExpiryDays=N)");
        }
        Bucket archive = bucket(scope, "ArchiveBucket", key)
                .versioned(true)
                .lifecycleRules(List.of(LifecycleRule.builder()
                        .id("archive-tiering-and-expiry")
                        .transitions(List.of(Transition.builder()
                                .storageClass(StorageClass.GLACIER_INSTANT_RETRIEVAL)
                                .transitionAfter(Duration.days(ARCHIVE_TRANSITION_DAYS))
                                .build()))
                        .expiration(Duration.days(archiveExpiryDays))
                        .noncurrentVersionExpiration(Duration.days(ARCHIVE_TRANSITION_DAYS))
                        .abortIncompleteMultipartUploadAfter(Duration.days(7))
                        .build()))
                .build();
        Bucket claimChecks = bucket(scope, "ClaimCheckBucket", key).build();
        return new Buckets(archive, claimChecks);
    }

    /**
     * Expires claim-check payloads once no copy of their message can come back: after {@code claimTtl} (source
     * retention + DLQ retention + quarantine retention + margin, the same window the claims cover), rounded up to whole
     * days as S3 counts them. Sooner, a redelivery, replay or the archive would find the payload gone.
     */
    public void expireClaimChecks(java.time.Duration claimTtl) {
        long days = Math.max(1, (claimTtl.toSeconds() + 86_399) / 86_400);
        claimChecks.addLifecycleRule(LifecycleRule.builder()
                .id(CLAIM_CHECK_EXPIRY_RULE)
                .expiration(Duration.days(days))
                .abortIncompleteMultipartUploadAfter(Duration.days(1))
                .build());
    }

    /**
     * Expires every object of {@code bucket} {@code days} after it was written (S3 counts whole days from creation),
     * by the lifecycle rule {@code ruleId}; incomplete multipart uploads go after a day. For a consumer's own data that
     * only matters for a while (an email outbox, an export).
     *
     * @throws IllegalArgumentException when {@code days} is below 1
     */
    public static void expireAfter(Bucket bucket, String ruleId, int days) {
        if (days < 1) {
            throw new IllegalArgumentException("the expiry of " + ruleId + " must be at least 1 day, was " + days);
        }
        bucket.addLifecycleRule(LifecycleRule.builder()
                .id(ruleId)
                .expiration(Duration.days(days))
                .abortIncompleteMultipartUploadAfter(Duration.days(1))
                .build());
    }

    /**
     * A bucket by the platform's rules, for a consumer's own data: KMS-encrypted with {@code key} (bucket key on), all
     * public access blocked, TLS only, retained on delete or replacement.
     */
    public static Bucket.Builder bucket(Construct scope, String id, IKey key) {
        return Bucket.Builder.create(scope, id)
                .encryption(BucketEncryption.KMS)
                .encryptionKey(key)
                .bucketKeyEnabled(true)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .enforceSsl(true)
                .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
    }
}
