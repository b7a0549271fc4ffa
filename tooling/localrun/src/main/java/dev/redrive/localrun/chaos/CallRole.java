package dev.redrive.localrun.chaos;

/** What an AWS call does for the function that makes it, as read from the call itself. */
public enum CallRole {
    /** A claim: a conditional PutItem of an IN_PROGRESS claim (new, or a take-over on the record's version). */
    CLAIM("claim-write"),
    /** A failure recorded without a claim (a transactional consumer's failed attempt). */
    CLAIM_FAILURE("claim-failure-write"),
    CLAIM_READ("claim-read"),
    /** The effect: the email's S3 PUT to the outbox, or the revenue transaction (with its claim and completion). */
    EFFECT("effect-call"),
    /** Completing a claim (UpdateItem to COMPLETED on the fencing token), or the revenue transaction. */
    COMPLETION("completion"),
    /** Releasing a claim after a failure (UpdateItem to FAILED on the fencing token). */
    RELEASE("release"),
    DEAD_LETTER_SEND("dead-letter-send"),
    VISIBILITY_CHANGE("visibility-change"),
    DLQ_RECEIVE("dlq-receive"),
    DLQ_DELETE("dlq-delete"),
    REPLAY_SEND("replay-send"),
    LEDGER_WRITE("ledger-write"),
    LEDGER_READ("ledger-read"),
    CONTROL_WRITE("control-write"),
    CONTROL_READ("control-read"),
    ARCHIVE_WRITE("archive-write"),
    OTHER("other");

    private final String id;

    CallRole(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
