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

    /**
     * One short line, safe in a log line, a terminal and the ledger: control characters, format characters (such as
     * a right-to-left override), line and paragraph separators, lone surrogates and non-characters are escaped
     * ({@code \\n}, {@code \\u001b}), never kept and never silently dropped; a reason cut to
     * {@value #MAX_REASON_LENGTH} characters never ends in half an escape or half a character.
     */
    static String shorten(String reason) {
        String escaped = Printable.escape(reason.strip());
        if (escaped.length() <= MAX_REASON_LENGTH) {
            return escaped;
        }
        int end = MAX_REASON_LENGTH - 1;
        int escapeStart = escaped.lastIndexOf('\\', end - 1);
        if (escapeStart >= 0 && escapeStart > end - 6 && end - escapeStart < escapeLength(escaped, escapeStart)) {
            end = escapeStart;
        }
        if (Character.isHighSurrogate(escaped.charAt(end - 1))) {
            end--;
        }
        return escaped.substring(0, end) + "…";
    }

    private static int escapeLength(String s, int at) {
        return at + 1 < s.length() && s.charAt(at + 1) == 'u' ? 6 : 2;
    }
}
