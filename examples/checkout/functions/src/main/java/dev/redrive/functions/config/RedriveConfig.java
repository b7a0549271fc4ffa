package dev.redrive.functions.config;

import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.lambda.RedriveSettings.Defaults;
import dev.redrive.sweeper.SweeperFunctionSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Redrive's configuration. Every property can be set as an environment variable (upper case, dots and dashes as
 * underscores: {@code redrive.claims.table} is {@code REDRIVE_CLAIMS_TABLE}); the IaC sets the same names on each
 * function.
 *
 * <p>The settings of the consumer glue (claims, backoff, batch, dead letters, claim checks, effects, aws, breakers, the
 * sweeper's retention) are {@code redrive-lambda}'s {@link dev.redrive.lambda.RedriveSettings}: their defaults are its
 * {@link Defaults} and {@link RedriveConfigSettings} maps this onto its records, which validate them, so a plain-Java
 * function reading its environment and this Quarkus one read each variable the same way.
 */
@ConfigMapping(prefix = "redrive")
public interface RedriveConfig {

    /** Idempotency claims. */
    Claims claims();

    /** Retry backoff for TRANSIENT failures. */
    Backoff backoff();

    /** How a batch of SQS records is processed. */
    Batch batch();

    /** Where messages that no retry can fix are sent. */
    DeadLetters deadLetters();

    /** The checkout example's consumers. */
    Checkout checkout();

    /** The SDK clients effects call their dependencies with (one retry layer: see {@code EffectClients}). */
    Effects effects();

    /**
     * Redrive's own AWS calls, the ones that are not an effect's: its tables, queues and buckets (see
     * {@code PlatformClients}).
     */
    Aws aws();

    /** The dead-letter sweeper (handler {@code dlq-sweeper}). */
    Sweeper sweeper();

    /**
     * Where the routes document is ({@code REDRIVE_ROUTES}): {@code s3://bucket/key} (the IaC's), a file path, or the
     * JSON. The sweeper reads every consumer's queues and event contract from it at each cold start; without it, the
     * old queues-only {@code redrive.sweeper.routes}, whose replays are refused.
     */
    Optional<String> routes();

    /** The circuit breakers of the effects' dependencies, shared by every sandbox (see {@code EffectBreakers}). */
    Breakers breakers();

    /**
     * The pace of replays, the sweeper's and a person's alike, per lane: the dependency a dead letter's failure names,
     * or {@code consumer:<name>} (see {@code ReplayPace}). The CLI reads the same variables.
     */
    Replays replays();

    /**
     * Payloads larger than SQS's 1 MiB, carried by claim check: an S3 pointer in the body, marked by a message
     * attribute, in the SQS Extended Client Library's format (see {@code S3ClaimChecks}). The consumers read the payload
     * through it; the quarantine keeps the pointer, a replay sends it again, the archive stores the whole payload.
     */
    ClaimChecks claimChecks();

    interface ClaimChecks {
        /**
         * The bucket claim-check payloads are read from, and where a dead letter or an upcast replay too large to be
         * sent inline is checked in. Absent: there are none, and a message marked as a claim check is a SCHEMA dead
         * letter that says no bucket is configured.
         */
        Optional<String> bucket();

        /** Further buckets claim checks may be read from (the producers' own); any other bucket is refused. */
        Optional<List<String>> readableBuckets();

        /** The KMS key payloads checked in are encrypted with; the bucket's default key when absent. */
        Optional<String> kmsKeyId();

        /**
         * When a consumer deletes a claim check's payload: {@code LIFECYCLE} (never; the bucket's lifecycle rule, which
         * the CDK app sets to the claim TTL, expires it, so every redelivery, replay and the archive find it), or
         * {@code AFTER_APPLY} (once its effect is applied and its claim completed; only for a queue whose every claim
         * check is read by this one consumer). See {@code ClaimCheckCleanup}.
         */
        @WithDefault(Defaults.CLAIM_CHECKS_CLEANUP)
        ClaimCheckCleanup cleanup();
    }

    interface Replays {
        /** Replays per second reaching a lane that {@code lane-rates} does not name (above 0, at most 1000). */
        @WithDefault(SweeperFunctionSettings.Defaults.REPLAYS_RATE_PER_SECOND)
        double ratePerSecond();

        /** Replays per second by lane, as {@code lane=perSecond} pairs separated by commas ({@code email-provider=5}). */
        Optional<String> laneRates();

        /**
         * How far ahead a replay may be booked: it is sent at once and becomes visible in its source queue at its slot
         * (at most SQS's 15-minute delay); a lane booked that far ahead holds its further replays for the next run.
         */
        @WithDefault(SweeperFunctionSettings.Defaults.REPLAYS_HORIZON)
        Duration horizon();
    }

    interface Claims {
        /** The DynamoDB table holding idempotency claims (partition key {@code pk}, TTL attribute {@code expiresAt}). */
        @WithDefault(Defaults.CLAIMS_TABLE)
        String table();

        /**
         * How long a claim record counts (counted from its last write). It must cover the longest time a message can
         * come back: {@link #sourceRetention()} + {@link #deadLetterRetention()} + the sweeper's retention + one day;
         * the function refuses to start otherwise ({@code ClaimTtlCheck}). The IaC derives it from the same settings.
         */
        @WithDefault(Defaults.CLAIMS_RECORD_TTL)
        Duration recordTtl();

        /** The longest source-queue retention the TTL must cover (the IaC sets it from the queues). */
        @WithDefault(Defaults.CLAIMS_SOURCE_RETENTION)
        Duration sourceRetention();

        /** The longest dead-letter-queue retention the TTL must cover (the IaC sets it from the queues). */
        @WithDefault(Defaults.CLAIMS_DEAD_LETTER_RETENTION)
        Duration deadLetterRetention();

        /** Added to the invocation's remaining time to size a lease, for clock skew between workers. */
        @WithDefault(Defaults.CLAIMS_CLOCK_SKEW_MARGIN)
        Duration clockSkewMargin();

        /** The shortest lease ever granted, even when the invocation has almost no time left. */
        @WithDefault(Defaults.CLAIMS_MINIMUM_LEASE)
        Duration minimumLease();

        /**
         * Kept back from the end of a lease, besides the clock-skew margin, for an effect's last call to reach its
         * downstream: an effect's deadline is the lease end minus both (the invocation's deadline minus this), and every
         * call of the effect times out by then.
         */
        @WithDefault(Defaults.CLAIMS_EFFECT_MARGIN)
        Duration effectMargin();
    }

    interface Backoff {
        /** The cap of the first retry's delay: {@code min(max-delay, base * multiplier^(attempt-1))}. */
        @WithDefault(Defaults.BACKOFF_BASE)
        Duration base();

        /** How much the cap grows per attempt (at least 1). */
        @WithDefault(Defaults.BACKOFF_MULTIPLIER)
        double multiplier();

        /** The largest delay ever used (at most 12h, the SQS visibility limit). */
        @WithDefault(Defaults.BACKOFF_MAX_DELAY)
        Duration maxDelay();

        /**
         * Seeds the jitter with the reproducible mulberry32 generator instead of a secure random source. For tests,
         * benchmarks and demos only: every container would draw the same delays.
         */
        Optional<Integer> seed();
    }

    interface Batch {
        /** How many records of a standard-queue batch (or FIFO message groups) are processed at once. */
        @WithDefault(Defaults.BATCH_CONCURRENCY)
        int concurrency();

        /**
         * Time kept back from the invocation's deadline for the queue calls and the response; records not finished
         * before it are reported as failed and their claims left to expire.
         */
        @WithDefault(Defaults.BATCH_DEADLINE_MARGIN)
        Duration deadlineMargin();

        /**
         * The source queue's {@code maxReceiveCount} (its redrive policy; the IaC sets the same number). A message its
         * dependency's open breaker refuses keeps its last receive for after the breaker closes: see
         * {@code EffectBreakers}.
         */
        @WithDefault(Defaults.BATCH_MAX_RECEIVE_COUNT)
        int maxReceiveCount();
    }

    interface DeadLetters {
        /**
         * The dead-letter queue URL of this function's source queue. When absent it is read once from the source
         * queue's redrive policy.
         */
        Optional<String> queueUrl();
    }

    /**
     * The backstop timeouts of an effect's SDK client; each call is bounded by the effect's deadline as well, which is
     * usually shorter. The client retries at most once, and only a connection blip, after {@link #retryDelay()}.
     */
    interface Aws {
        /**
         * Attempts in all of one call (1 to 5), in the SDK's standard retry strategy, so a throttled or failing call
         * gives up within seconds, inside the invocation; the event source's redelivery is the retry that matters.
         */
        @WithDefault(Defaults.AWS_MAX_ATTEMPTS)
        int maxAttempts();
    }

    interface Effects {
        /** How long a connection to the dependency may take to open. */
        @WithDefault(Defaults.EFFECTS_CONNECT_TIMEOUT)
        Duration connectTimeout();

        /** The longest one attempt may take (also the socket's read timeout). */
        @WithDefault(Defaults.EFFECTS_ATTEMPT_TIMEOUT)
        Duration attemptTimeout();

        /** The longest a call may take with its one retry; at least {@link #attemptTimeout()}. */
        @WithDefault(Defaults.EFFECTS_CALL_TIMEOUT)
        Duration callTimeout();

        /** The pause before the one retry of a connection blip; at most 1 s. */
        @WithDefault(Defaults.EFFECTS_RETRY_DELAY)
        Duration retryDelay();
    }

    interface Checkout {
        /**
         * The orders table of the checkout (handler {@code checkout}): attempts by Idempotency-Key, stock,
         * reservations, orders and their outbox ({@code pk}/{@code sk}; its stream carries the outbox to the relay).
         */
        @WithDefault("redrive-orders")
        String ordersTable();

        /** The payment provider the checkout authorizes with. */
        Payments payments();

        /** The outbox relay and its scheduled sweep (handlers {@code outbox-relay}, {@code outbox-sweeper}). */
        Outbox outbox();

        /** The scheduled voiding of ghost transactions (handler {@code checkout-reconciliation}). */
        Reconciliation reconciliation();

        /**
         * How long past its deadline an invocation holds its checkout attempt: a retry with the same key waits this
         * long after a crashed or frozen invocation's end before it takes over (the stale one is fenced after it).
         */
        @WithDefault("PT5S")
        Duration leaseMargin();

        /** The Retry-After of a 503 (provider unavailable) and of a 409 while another invocation runs the checkout. */
        @WithDefault("PT2S")
        Duration retryAfter();

        /** The S3 bucket the confirmation-email consumer writes emails to (the mail provider's stand-in). */
        @WithDefault("redrive-email-outbox")
        String emailOutboxBucket();

        /** The DynamoDB table holding daily revenue counters (partition key {@code pk}). */
        @WithDefault("redrive-revenue")
        String revenueTable();
    }

    interface Outbox {
        /**
         * The queues OrderPlaced is published to, one per consumer (names, ARNs or URLs; the template names them).
         * Absent: the relay and its sweep refuse to start.
         */
        Optional<List<String>> subscriberQueues();

        /** How long an outbox event may stay unpublished before the sweep republishes it. */
        @WithDefault("PT5M")
        Duration republishAfter();

        /** The most events one sweep republishes. */
        @WithDefault("500")
        int sweepLimit();
    }

    interface Reconciliation {
        /**
         * How long after a checkout attempt's lease its client may still retry and finish it; past it, an attempt
         * without an order has its authorization voided and its stock released.
         */
        @WithDefault("PT15M")
        Duration grace();

        /** The most abandoned checkouts one run voids. */
        @WithDefault("100")
        int limit();

        /** How long the reconciliation holds each attempt it voids. */
        @WithDefault("PT1M")
        Duration lease();
    }

    interface Payments {
        /**
         * The provider's base URL ({@code <url>authorizations}, {@code <url>authorizations/void}), ending in a slash.
         * Absent: the checkout answers 503 (no provider configured), and no other handler needs it.
         */
        Optional<String> url();

        /** The longest a connection to the provider may take to open. */
        @WithDefault("PT1S")
        Duration connectTimeout();

        /**
         * The longest an authorization may take (it also ends before the invocation's deadline); past it the checkout
         * answers 503 and the client's retry with its key finds out what the provider did.
         */
        @WithDefault("PT5S")
        Duration timeout();
    }

    interface Sweeper {
        /** The quarantine ledger table (pk/sk, GSIs {@code byState} and {@code byQueue}). */
        @WithDefault(SweeperFunctionSettings.Defaults.QUARANTINE_TABLE)
        String quarantineTable();

        /** The control table: sweeper leases, maintenance windows, replay statistics. */
        @WithDefault(SweeperFunctionSettings.Defaults.CONTROL_TABLE)
        String controlTable();

        /** The archive bucket: expired dead letters, and payloads too large for a ledger item. */
        @WithDefault(SweeperFunctionSettings.Defaults.ARCHIVE_BUCKET)
        String archiveBucket();

        /** The KMS key archive objects are encrypted with; the bucket's default key when absent. */
        Optional<String> archiveKmsKeyId();

        /** How long a dead letter stays in the active ledger before it is archived. */
        @WithDefault(SweeperFunctionSettings.Defaults.RETENTION)
        Duration retention();

        /**
         * The queues swept, as a JSON array with one object per consumer:
         * {@code {"consumer", "sourceQueueUrl", "deadLetterQueueUrl"}} (the IaC fills it in).
         */
        @WithDefault(SweeperFunctionSettings.Defaults.LEGACY_ROUTES)
        String routes();

        /** The most dead letters quarantined per queue per run; the rest wait for the next run. */
        @WithDefault(SweeperFunctionSettings.Defaults.MAX_ARRIVALS_PER_RUN)
        int maxArrivalsPerRun();

        /** Payloads longer than this (characters) are kept in the archive bucket, not in the ledger item. */
        @WithDefault(SweeperFunctionSettings.Defaults.INLINE_BODY_LIMIT)
        int inlineBodyLimit();

        /** The most records archived per state per run. */
        @WithDefault(SweeperFunctionSettings.Defaults.ARCHIVE_BATCH)
        int archiveBatch();

        /**
         * The most payload characters one archive object holds; a run writes as many objects as that takes, so what it
         * holds in memory stays bounded (8 Mi characters by default, for a 256 MB function).
         */
        @WithDefault(SweeperFunctionSettings.Defaults.ARCHIVE_OBJECT_CHARS)
        long archiveObjectChars();

        /** Time kept back from the invocation's deadline: no new batch starts after it. */
        @WithDefault(SweeperFunctionSettings.Defaults.DEADLINE_MARGIN)
        Duration deadlineMargin();

        /** How long a received dead letter stays invisible while it is quarantined. */
        @WithDefault(SweeperFunctionSettings.Defaults.RECEIVE_VISIBILITY_SECONDS)
        int receiveVisibilitySeconds();
    }

    interface Breakers {
        /**
         * The table the breakers' shared state lives in: the control table (one item per dependency, {@code pk =
         * breaker#<dependency>}), written only on transitions.
         */
        @WithDefault(Defaults.BREAKERS_TABLE)
        String table();

        /** The mail provider's breaker ({@code email-provider}, in front of the confirmation email). */
        Breaker emailProvider();
    }

    /** One dependency's circuit breaker. The defaults are {@code BreakerPolicy.DEFAULT}'s. */
    interface Breaker {
        /** Whether the breaker guards the dependency's calls at all; off, every message calls it. */
        @WithDefault(Defaults.BREAKER_ENABLED)
        boolean enabled();

        /** TRANSIENT failures of the dependency in a row, in one sandbox, that open the breaker. */
        @WithDefault(Defaults.BREAKER_CONSECUTIVE_FAILURES)
        int consecutiveFailures();

        /** The share of TRANSIENT failures over a full window of calls that opens it (strictly over; 1.0: off). */
        @WithDefault(Defaults.BREAKER_FAILURE_RATE)
        double failureRate();

        /** How many recent calls of one sandbox the failure rate is measured over. */
        @WithDefault(Defaults.BREAKER_WINDOW)
        int window();

        /** How long it stays open after it opens; messages refused meanwhile are deferred by the rest of it. */
        @WithDefault(Defaults.BREAKER_OPEN_PERIOD)
        Duration openPeriod();

        /** The cap of the open period, which doubles on every failed probe. */
        @WithDefault(Defaults.BREAKER_MAX_OPEN_PERIOD)
        Duration maxOpenPeriod();

        /** How long the one probe holds the half-open breaker before another sandbox may probe instead. */
        @WithDefault(Defaults.BREAKER_PROBE_LEASE)
        Duration probeLease();

        /** How long a sandbox trusts its last read of the shared state (the healthy path reads once per period). */
        @WithDefault(Defaults.BREAKER_CACHE_TTL)
        Duration cacheTtl();
    }
}
