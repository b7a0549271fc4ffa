package dev.redrive.quarkus;

import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.lambda.RedriveSettings.Defaults;
import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Redrive's configuration of a Quarkus consumer function, under {@code redrive.}. Every property can be set as an
 * environment variable (upper case, dots and dashes as underscores: {@code redrive.claims.table} is
 * {@code REDRIVE_CLAIMS_TABLE}); Redrive's CDK constructs set the same names on each function.
 *
 * <p>These are {@code redrive-lambda}'s {@link dev.redrive.lambda.RedriveSettings}, as a typed mapping: their defaults
 * are its {@link Defaults}, and the extension maps this onto its records, which validate them, so a plain-Java function
 * reading its environment and a Quarkus one read each variable the same way. An application may map further
 * properties of its own under {@code redrive.} in a mapping of its own.
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

    /** The SDK clients effects call their dependencies with (one retry layer: see {@code EffectClients}). */
    Effects effects();

    /**
     * Redrive's own AWS calls, the ones that are not an effect's: its tables, queues and buckets (see
     * {@code PlatformClients}).
     */
    Aws aws();

    /** What the claim TTL must cover of the dead-letter sweeper, which runs as a function of its own. */
    Sweeper sweeper();

    /** The circuit breakers of the effects' dependencies, shared by every sandbox (see {@code EffectBreakers}). */
    Breakers breakers();

    /**
     * Payloads larger than SQS's 1 MiB, carried by claim check: an S3 pointer in the body, marked by a message
     * attribute, in the SQS Extended Client Library's format (see {@code S3ClaimChecks}). The consumers read the payload
     * through it; the quarantine keeps the pointer, a replay sends it again, the archive stores the whole payload.
     */
    ClaimChecks claimChecks();

    /**
     * The consumer's build version (a release, a commit, an image tag; at most 128 characters), recorded with each
     * failure on the claim, on a dead letter the consumer sends and so in the quarantine, where the console marks the
     * deploys on its charts. Absent: the function's published Lambda version ({@code AWS_LAMBDA_FUNCTION_VERSION})
     * unless it is {@code $LATEST}, else {@code unknown}. Redrive's CDK construct sets it from its {@code buildVersion}
     * prop.
     */
    Optional<String> buildVersion();

    /** Claim checks: where payloads larger than SQS allows are read from and checked in. */
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

    /** Idempotency claims: their table, how long they count, and the leases they are held by. */
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

    /** The full-jitter backoff of a TRANSIENT failure's retry. */
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

    /** How a batch of SQS records is processed. */
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

    /** Where messages that no retry can fix are sent. */
    interface DeadLetters {
        /**
         * The dead-letter queue URL of this function's source queue. When absent it is read once from the source
         * queue's redrive policy.
         */
        Optional<String> queueUrl();
    }

    /** The retry of Redrive's own AWS calls (its tables, queues and buckets). */
    interface Aws {
        /**
         * Attempts in all of one call (1 to 5), in the SDK's standard retry strategy, so a throttled or failing call
         * gives up within seconds, inside the invocation; the event source's redelivery is the retry that matters.
         */
        @WithDefault(Defaults.AWS_MAX_ATTEMPTS)
        int maxAttempts();
    }

    /**
     * The backstop timeouts of an effect's SDK client; each call is bounded by the effect's deadline as well, which is
     * usually shorter. The client retries at most once, and only a connection blip, after {@link #retryDelay()}.
     */
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

    /** The dead-letter sweeper's retention, which the claim TTL covers. */
    interface Sweeper {
        /**
         * How long the dead-letter sweeper keeps a dead letter in its active ledger before it archives it: a replay can
         * come that long after the dead-letter queue's retention, so the claim TTL covers it.
         */
        @WithDefault(Defaults.SWEEPER_RETENTION)
        Duration retention();
    }

    /** The circuit breakers of the effects' dependencies. */
    interface Breakers {
        /**
         * The table the breakers' shared state lives in: the control table (one item per dependency, {@code pk =
         * breaker#<dependency>}), written only on transitions.
         */
        @WithDefault(Defaults.BREAKERS_TABLE)
        String table();

        /**
         * The breakers by dependency ({@code redrive.breakers.<dependency>.*}, the variables
         * {@code REDRIVE_BREAKERS_<DEPENDENCY>_*}, the dependency in upper case with underscores for dashes). A
         * dependency a {@link ConsumerGuard} names and no property configures has the defaults.
         */
        @WithParentName
        @ConfigDocMapKey("dependency")
        Map<String, Breaker> dependencies();
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
