package dev.redrive.core.failure;

import java.util.Objects;

/**
 * A failure, classified.
 *
 * @param failureClass where it goes next
 * @param errorType    a stable name for the kind of error (an exception class name or a domain code)
 * @param reason       a short, payload-free explanation, safe for logs and the quarantine ledger
 * @param dependency   the dependency that failed, when known (matched against maintenance windows)
 */
public record Classification(FailureClass failureClass, String errorType, String reason, String dependency) {

    /** Reasons are stored and logged; keep them short. */
    public static final int MAX_REASON_LENGTH = 300;

    public Classification {
        Objects.requireNonNull(failureClass, "failureClass");
        Objects.requireNonNull(errorType, "errorType");
        reason = shorten(reason == null ? "" : reason);
    }

    public static Classification of(FailureClass failureClass, String errorType, String reason) {
        return new Classification(failureClass, errorType, reason, null);
    }

    public Classification withDependency(String dependency) {
        return new Classification(failureClass, errorType, reason, dependency);
    }

    static String shorten(String reason) {
        String oneLine = reason.replaceAll("[\\r\\n\\t]+", " ").strip();
        return oneLine.length() <= MAX_REASON_LENGTH ? oneLine : oneLine.substring(0, MAX_REASON_LENGTH - 1) + "…";
    }
}
