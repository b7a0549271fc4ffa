package dev.redrive.core.replay;

import java.util.Objects;

/**
 * An operator's correction of a dead letter's payload for one replay: the body to send instead of the one kept, and
 * why. The record keeps its original payload; the replay sends this body through the same checks and marker as any
 * replay, and its REPLAYED audit entry carries the {@linkplain PayloadDiff diff} and the reason.
 *
 * @param body   the corrected payload, sent as written (the schema check must find it current)
 * @param reason why it was corrected; required, and cut to {@value #MAX_REASON_CHARS} characters in the audit trail
 */
public record PayloadEdit(String body, String reason) {

    /** The longest reason kept in the audit trail, in characters. */
    public static final int MAX_REASON_CHARS = 1_000;

    /**
     * How the audit entry that readies an edited replay begins. A replay that finds a record left in IDEMPOTENCY_CHECK
     * by an edit (its send failed, or its sender stopped) never resumes it with the original payload: it moves the
     * record back to QUARANTINED, for the edit to be made again.
     */
    public static final String AUDIT_MARK = "edited payload";

    public PayloadEdit {
        Objects.requireNonNull(body, "body");
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("an edited replay needs a reason saying what was corrected and why");
        }
        reason = reason.strip();
        if (reason.length() > MAX_REASON_CHARS) {
            reason = reason.substring(0, MAX_REASON_CHARS - 1) + "…";
        }
    }

    /** What the audit trail says of this edit, given its diff from the original. */
    String auditNote(String diff) {
        return AUDIT_MARK + " (the original is kept); reason: " + reason + "; diff: " + diff;
    }
}
