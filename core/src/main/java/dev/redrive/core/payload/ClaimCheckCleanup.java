package dev.redrive.core.payload;

/**
 * When the payload a claim check points at is deleted. A payload is needed for as long as any copy of its message can
 * come back: a redelivery, a duplicate, the dead letter and its replay. Deleting it sooner turns each of those into a
 * {@link ClaimCheckMissing} dead letter.
 */
public enum ClaimCheckCleanup {

    /**
     * Never deleted by Redrive; the payload bucket's lifecycle rule expires it. The default and the safe choice: the CDK
     * app sets that rule to the claim retention (source retention + DLQ retention + quarantine retention + margin), the
     * window in which any copy of the message can come back, so every redelivery, replay and the archive find it.
     */
    LIFECYCLE,

    /**
     * Deleted by the consumer once its effect is applied and its claim completed. Only for a queue whose every claim
     * check is read by exactly one consumer (a pointer fanned out to two queues is one object: the first consumer to
     * apply it would delete the other's payload). A duplicate or a replay that arrives after the delete is
     * dead-lettered as {@link ClaimCheckMissing#ERROR_TYPE}: its effect was applied, and the claim says so.
     */
    AFTER_APPLY
}
