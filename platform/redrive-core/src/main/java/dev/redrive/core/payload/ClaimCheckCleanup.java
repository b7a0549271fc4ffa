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
     * apply it would delete the other's payload). Before the delete, the claim store records under the pointer's
     * location the key the message was applied under, so a copy of the same message that arrives after the delete (an
     * SQS redelivery, its whole batch coming back, a replay of the same pointer) is acknowledged as a duplicate of that
     * key, never dead-lettered. Another message carrying the same payload under a new pointer is a different object:
     * its payload is its own.
     */
    AFTER_APPLY
}
