package dev.redrive.aws.payload;

import dev.redrive.core.payload.ClaimCheckMissing;
import dev.redrive.core.payload.ClaimChecks;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Where a deployment's claim checks are: the one rule every composition root (the consumers, the sweeper, the CLI)
 * builds its {@link ClaimChecks} by, so all of them read the same buckets.
 *
 * @param bucket          the claim-check bucket (read from; where payloads are checked in); empty when there is none
 * @param readableBuckets further buckets claim checks may be read from (the producers' own)
 * @param kmsKeyId        the KMS key payloads checked in are encrypted with; empty for the bucket's default
 */
public record ClaimCheckSettings(Optional<String> bucket, List<String> readableBuckets, Optional<String> kmsKeyId) {

    /** No claim-check bucket: a message marked as a claim check is refused with that reason. */
    public static final ClaimCheckSettings NONE = new ClaimCheckSettings(Optional.empty(), List.of(), Optional.empty());

    /** The name of the setting a refusal points at (the functions' {@code redrive.claim-checks.bucket}). */
    public static final String BUCKET_VARIABLE = "REDRIVE_CLAIM_CHECKS_BUCKET";

    public ClaimCheckSettings {
        bucket = bucket.filter(b -> !b.isBlank());
        readableBuckets = readableBuckets == null
                ? List.of()
                : readableBuckets.stream().filter(b -> !b.isBlank()).toList();
        kmsKeyId = kmsKeyId.filter(k -> !k.isBlank());
    }

    /** Whether there is a claim-check bucket. */
    public boolean configured() {
        return bucket.isPresent();
    }

    /**
     * The claim checks on {@code s3}: on the bucket when there is one; otherwise a store that knows a claim check when
     * it sees one (the Extended Client Library's attribute) and refuses to read it, as a SCHEMA {@link
     * ClaimCheckMissing} saying no bucket is configured: never a pointer parsed as if it were the payload.
     */
    public ClaimChecks on(S3Client s3) {
        if (bucket.isEmpty()) {
            return UNCONFIGURED;
        }
        return new S3ClaimChecks(s3, bucket.get(), Set.copyOf(readableBuckets), "", kmsKeyId.orElse(null));
    }

    /** What the queue gateway checks in with a dead letter too large to go inline: nothing without a bucket. */
    public ClaimChecks forCheckIn(S3Client s3) {
        return configured() ? on(s3) : ClaimChecks.NONE;
    }

    private static final ClaimChecks UNCONFIGURED = new ClaimChecks() {
        @Override
        public boolean isClaimCheck(String body, Map<String, String> attributes) {
            return ClaimCheckPointer.marks(attributes.keySet());
        }

        @Override
        public String payloadOf(String body, Map<String, String> attributes) {
            if (!isClaimCheck(body, attributes)) {
                return body;
            }
            throw new ClaimCheckMissing("the message is a claim check ("
                    + ClaimCheckPointer.markerIn(attributes.keySet()).orElse(ClaimCheckPointer.SIZE_ATTRIBUTE)
                    + ") but no claim-check bucket is configured (" + BUCKET_VARIABLE + "), so its payload cannot be"
                    + " read");
        }

        @Override
        public ClaimCheck checkIn(String payload) {
            throw new UnsupportedOperationException(
                    "no claim-check bucket is configured (" + BUCKET_VARIABLE + "); nothing can be checked in");
        }

        @Override
        public void discard(String body, Map<String, String> attributes) {}
    };
}
