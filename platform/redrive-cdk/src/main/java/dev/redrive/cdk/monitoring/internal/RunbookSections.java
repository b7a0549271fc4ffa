package dev.redrive.cdk.monitoring.internal;

/**
 * The sections of the runbook ({@code docs/runbook.md}) the platform's alarms link to: each is the anchor of a heading
 * there (GitHub's: lower case, punctuation dropped, spaces as {@code -}).
 */
public final class RunbookSections {

    public static final String SOURCE_AGE = "source-queue-oldest-message-age";
    public static final String SOURCE_DEPTH = "source-queue-depth";
    public static final String DEAD_LETTER_AGE = "dead-letter-queue-oldest-message-age";
    public static final String DEAD_LETTER_DEPTH = "dead-letter-queue-depth";
    public static final String DEAD_LETTER_ARRIVALS = "dead-letter-arrivals-above-baseline";
    public static final String FAILURE_RECORD = "failure-record-arrival";
    public static final String OLDEST_UNRESOLVED = "oldest-unresolved-quarantine";
    public static final String REPLAY_SUCCESS_RATE = "replay-success-rate";
    public static final String SWEEPER_HEARTBEAT = "sweeper-heartbeat";
    public static final String FUNCTION_ERRORS = "function-errors";
    public static final String FUNCTION_THROTTLES = "function-throttles";
    public static final String TABLE_THROTTLES = "table-or-index-throttles";
    public static final String ACCOUNT_CONCURRENCY = "account-concurrency";
    public static final String BREAKER_OPEN = "circuit-breaker-open";

    private RunbookSections() {}
}
