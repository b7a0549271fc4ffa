package dev.redrive.core.sweeper;

import dev.redrive.core.claim.PayloadFingerprint;

/** Quarantine ids: derived from the dead-letter queue and the source message id, so a re-seen dead letter maps to its record. */
public final class QuarantineIds {
    private QuarantineIds() {}

    public static String of(String deadLetterQueue, String sourceMessageId) {
        return "q-"
                + PayloadFingerprint.of(deadLetterQueue + "|" + sourceMessageId).substring(0, 24);
    }
}
