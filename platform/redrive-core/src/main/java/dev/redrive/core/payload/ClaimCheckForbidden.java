package dev.redrive.core.payload;

/**
 * A claim check whose payload the store refused to read (on S3: 403 AccessDenied), so it is <b>gone or forbidden</b>,
 * and the answer does not say which: S3 answers a missing key with 403, not 404, to a reader without {@code
 * s3:ListBucket} on the bucket (S3's GetObject documentation, "Permissions"), and with the same 403 when the object is
 * there but a policy or its KMS key denies this reader.
 *
 * <p>A consumer treats it as a payload that is gone (SCHEMA, with this reason: no retry of the message reads it, and
 * the dead letter keeps the pointer), and so does the archive (it keeps the pointer and says why). The replay checks do
 * not refuse and archive a dead letter for it: the record is left as it was, with the reason in its outcome, since a
 * fix to the grants makes the payload readable again. The CDK stack grants {@code s3:ListBucket} on its claim-check
 * bucket, so that a payload gone from it is a plain {@link ClaimCheckMissing} (404).
 */
public final class ClaimCheckForbidden extends ClaimCheckMissing {

    public ClaimCheckForbidden(String reason, Throwable cause) {
        super(reason, cause);
    }
}
