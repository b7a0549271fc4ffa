package dev.redrive.cdk.consumer;

/**
 * Names of the environment variables Redrive's constructs set on consumers: the {@code redrive.*} configuration of the
 * functions (SmallRye maps {@code redrive.dead-letters.queue-url} to {@code REDRIVE_DEAD_LETTERS_QUEUE_URL}).
 */
public final class ConsumerEnvironment {

    /** The idempotency claims table. */
    public static final String CLAIMS_TABLE = "REDRIVE_CLAIMS_TABLE";
    /** How long claims count (ISO-8601), derived from the retentions below ({@code dev.redrive.cdk.consumer.ClaimTtl}). */
    public static final String CLAIMS_RECORD_TTL = "REDRIVE_CLAIMS_RECORD_TTL";
    /** The longest source-queue retention the claim TTL covers; the functions check the TTL against it at start. */
    public static final String CLAIMS_SOURCE_RETENTION = "REDRIVE_CLAIMS_SOURCE_RETENTION";
    /** The longest dead-letter retention the claim TTL covers. */
    public static final String CLAIMS_DEAD_LETTER_RETENTION = "REDRIVE_CLAIMS_DEAD_LETTER_RETENTION";
    /** The quarantine retention the claim TTL covers (the sweeper's {@code sweeperRetention}). */
    public static final String SWEEPER_RETENTION = "REDRIVE_SWEEPER_RETENTION";
    /** The consumer's own dead-letter queue URL. */
    public static final String DEAD_LETTERS_QUEUE_URL = "REDRIVE_DEAD_LETTERS_QUEUE_URL";
    /** The backoff base, an ISO-8601 duration ({@code PT2S}). */
    public static final String BACKOFF_BASE = "REDRIVE_BACKOFF_BASE";
    /** The backoff multiplier ({@code 2.0}). */
    public static final String BACKOFF_MULTIPLIER = "REDRIVE_BACKOFF_MULTIPLIER";
    /** The backoff cap, an ISO-8601 duration ({@code PT15M}). */
    public static final String BACKOFF_MAX_DELAY = "REDRIVE_BACKOFF_MAX_DELAY";
    /** Records of a batch processed at once. */
    public static final String BATCH_CONCURRENCY = "REDRIVE_BATCH_CONCURRENCY";
    /** The source queue's maxReceiveCount: a message its open breaker refuses keeps its last receive. */
    public static final String BATCH_MAX_RECEIVE_COUNT = "REDRIVE_BATCH_MAX_RECEIVE_COUNT";
    /** The table the circuit breakers share their state in: the control table. */
    public static final String BREAKERS_TABLE = "REDRIVE_BREAKERS_TABLE";
    /** The claim-check bucket: payloads over SQS's 1 MiB, in the SQS Extended Client Library's format. */
    public static final String CLAIM_CHECKS_BUCKET = "REDRIVE_CLAIM_CHECKS_BUCKET";
    /** When a consumer deletes a claim check's payload: LIFECYCLE (never; the bucket expires it) or AFTER_APPLY. */
    public static final String CLAIM_CHECKS_CLEANUP = "REDRIVE_CLAIM_CHECKS_CLEANUP";

    /**
     * The consumer's build version, recorded with each failure (the console marks where it changed); set only when the
     * consumer's props name one, else the function records its published Lambda version, or {@code unknown}.
     */
    public static final String BUILD_VERSION = "REDRIVE_BUILD_VERSION";

    private ConsumerEnvironment() {}
}
