package dev.redrive.lambda;

import dev.redrive.aws.clients.EffectClients;
import dev.redrive.aws.clients.PlatformClients;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.claim.ClaimRetention;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.lambda.internal.BreakerVariables;
import dev.redrive.lambda.internal.Variables;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a consumer function is configured with, read from its environment: every setting is a {@code REDRIVE_*}
 * variable named after its property ({@code redrive.claims.table} is {@code REDRIVE_CLAIMS_TABLE}), with the default
 * {@link Defaults} names. The IaC sets the same variables; a Quarkus function reads the same properties through its
 * {@code @ConfigMapping} and maps them onto these records, so each default and each validation exists once: the
 * defaults here, the validations in the records (and in the core policies they build, which check their own values).
 * The module README lists every variable.
 *
 * @param claims      idempotency claims: their table, how long they count, how leases are sized
 * @param backoff     the retry backoff of TRANSIENT failures
 * @param batch       how a batch of SQS records is processed
 * @param deadLetters where messages no retry can fix are sent
 * @param claimChecks payloads larger than SQS's limit, by S3 claim check
 * @param effects     the SDK clients effects call their dependencies with (one retry layer: {@link EffectClients})
 * @param aws         Redrive's own AWS calls: its tables, queues and buckets ({@link PlatformClients})
 * @param breakers    the circuit breakers of the effects' dependencies, shared by every sandbox
 * @param build       the consumer's build, whose version each failure records (the console's deploy markers)
 */
public record RedriveSettings(
        Claims claims,
        Backoff backoff,
        Batch batch,
        DeadLetters deadLetters,
        ClaimChecks claimChecks,
        EffectClients.Settings effects,
        Aws aws,
        Breakers breakers,
        Build build) {

    public RedriveSettings {
        Objects.requireNonNull(claims, "claims");
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(deadLetters, "deadLetters");
        Objects.requireNonNull(claimChecks, "claimChecks");
        Objects.requireNonNull(effects, "effects");
        Objects.requireNonNull(aws, "aws");
        Objects.requireNonNull(breakers, "breakers");
        Objects.requireNonNull(build, "build");
    }

    /** The settings of this process' environment ({@link System#getenv()}). */
    public static RedriveSettings fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /** The settings {@code environment} holds; every variable it lacks takes its default. */
    public static RedriveSettings fromEnvironment(Map<String, String> environment) {
        Variables env = new Variables(environment);
        return new RedriveSettings(
                new Claims(
                        env.string("redrive.claims.table", Defaults.CLAIMS_TABLE),
                        env.duration("redrive.claims.record-ttl", Defaults.CLAIMS_RECORD_TTL),
                        env.duration("redrive.claims.source-retention", Defaults.CLAIMS_SOURCE_RETENTION),
                        env.duration("redrive.claims.dead-letter-retention", Defaults.CLAIMS_DEAD_LETTER_RETENTION),
                        env.duration("redrive.sweeper.retention", Defaults.SWEEPER_RETENTION),
                        env.duration("redrive.claims.clock-skew-margin", Defaults.CLAIMS_CLOCK_SKEW_MARGIN),
                        env.duration("redrive.claims.minimum-lease", Defaults.CLAIMS_MINIMUM_LEASE),
                        env.duration("redrive.claims.effect-margin", Defaults.CLAIMS_EFFECT_MARGIN)),
                new Backoff(
                        env.duration("redrive.backoff.base", Defaults.BACKOFF_BASE),
                        env.decimal("redrive.backoff.multiplier", Defaults.BACKOFF_MULTIPLIER),
                        env.duration("redrive.backoff.max-delay", Defaults.BACKOFF_MAX_DELAY),
                        env.optionalInteger("redrive.backoff.seed")),
                new Batch(
                        env.integer("redrive.batch.concurrency", Defaults.BATCH_CONCURRENCY),
                        env.duration("redrive.batch.deadline-margin", Defaults.BATCH_DEADLINE_MARGIN),
                        env.integer("redrive.batch.max-receive-count", Defaults.BATCH_MAX_RECEIVE_COUNT)),
                new DeadLetters(env.optional("redrive.dead-letters.queue-url")),
                new ClaimChecks(
                        env.optional("redrive.claim-checks.bucket"),
                        env.list("redrive.claim-checks.readable-buckets"),
                        env.optional("redrive.claim-checks.kms-key-id"),
                        env.constant(
                                "redrive.claim-checks.cleanup",
                                ClaimCheckCleanup.class,
                                Defaults.CLAIM_CHECKS_CLEANUP)),
                new EffectClients.Settings(
                        env.duration("redrive.effects.connect-timeout", Defaults.EFFECTS_CONNECT_TIMEOUT),
                        env.duration("redrive.effects.attempt-timeout", Defaults.EFFECTS_ATTEMPT_TIMEOUT),
                        env.duration("redrive.effects.call-timeout", Defaults.EFFECTS_CALL_TIMEOUT),
                        env.duration("redrive.effects.retry-delay", Defaults.EFFECTS_RETRY_DELAY)),
                new Aws(env.integer("redrive.aws.max-attempts", Defaults.AWS_MAX_ATTEMPTS)),
                new Breakers(env.string("redrive.breakers.table", Defaults.BREAKERS_TABLE), BreakerVariables.read(env)),
                Build.of(
                        env.optional("redrive.build-version"),
                        Optional.ofNullable(environment.get(Build.FUNCTION_VERSION_VARIABLE))));
    }

    /**
     * The default of every setting, as the text a variable would hold: one place, read by
     * {@link #fromEnvironment(Map)} and named by the Quarkus mapping's {@code @WithDefault}s.
     */
    public static final class Defaults {
        public static final String CLAIMS_TABLE = "redrive-claims";
        public static final String CLAIMS_RECORD_TTL = "P35D";
        public static final String CLAIMS_SOURCE_RETENTION = "P4D";
        public static final String CLAIMS_DEAD_LETTER_RETENTION = "P14D";
        public static final String SWEEPER_RETENTION = "P7D";
        public static final String CLAIMS_CLOCK_SKEW_MARGIN = "2s";
        public static final String CLAIMS_MINIMUM_LEASE = "10s";
        public static final String CLAIMS_EFFECT_MARGIN = "1s";
        public static final String BACKOFF_BASE = "2s";
        public static final String BACKOFF_MULTIPLIER = "2.0";
        public static final String BACKOFF_MAX_DELAY = "15m";
        public static final String BATCH_CONCURRENCY = "10";
        public static final String BATCH_DEADLINE_MARGIN = "3s";
        public static final String BATCH_MAX_RECEIVE_COUNT = "10";
        public static final String CLAIM_CHECKS_CLEANUP = "LIFECYCLE";
        public static final String EFFECTS_CONNECT_TIMEOUT = "2s";
        public static final String EFFECTS_ATTEMPT_TIMEOUT = "10s";
        public static final String EFFECTS_CALL_TIMEOUT = "20s";
        public static final String EFFECTS_RETRY_DELAY = "50ms";
        public static final String AWS_MAX_ATTEMPTS = "3";
        public static final String BREAKERS_TABLE = "redrive-control";
        public static final String BREAKER_ENABLED = "true";
        public static final String BREAKER_CONSECUTIVE_FAILURES = "5";
        public static final String BREAKER_FAILURE_RATE = "0.5";
        public static final String BREAKER_WINDOW = "20";
        public static final String BREAKER_OPEN_PERIOD = "30s";
        public static final String BREAKER_MAX_OPEN_PERIOD = "10m";
        public static final String BREAKER_PROBE_LEASE = "30s";
        public static final String BREAKER_CACHE_TTL = "5s";

        private Defaults() {}
    }

    /**
     * Idempotency claims.
     *
     * @param table               {@code REDRIVE_CLAIMS_TABLE}: the DynamoDB table of the claims (partition key
     *                            {@code pk}, TTL attribute {@code expiresAt})
     * @param recordTtl           {@code REDRIVE_CLAIMS_RECORD_TTL}: how long a claim counts after its last write; it
     *                            must cover {@link #retention()} ({@link ClaimTtlCheck} refuses to start otherwise)
     * @param sourceRetention     {@code REDRIVE_CLAIMS_SOURCE_RETENTION}: the longest source-queue retention
     * @param deadLetterRetention {@code REDRIVE_CLAIMS_DEAD_LETTER_RETENTION}: the longest dead-letter-queue retention
     * @param quarantineRetention {@code REDRIVE_SWEEPER_RETENTION}: how long a dead letter stays in the quarantine
     * @param clockSkewMargin     {@code REDRIVE_CLAIMS_CLOCK_SKEW_MARGIN}: added to the remaining time to size a lease
     * @param minimumLease        {@code REDRIVE_CLAIMS_MINIMUM_LEASE}: the shortest lease ever granted
     * @param effectMargin        {@code REDRIVE_CLAIMS_EFFECT_MARGIN}: kept back from a lease's end for an effect's
     *                            last call to reach its downstream
     */
    public record Claims(
            String table,
            Duration recordTtl,
            Duration sourceRetention,
            Duration deadLetterRetention,
            Duration quarantineRetention,
            Duration clockSkewMargin,
            Duration minimumLease,
            Duration effectMargin) {

        public Claims {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(recordTtl, "recordTtl");
            Objects.requireNonNull(sourceRetention, "sourceRetention");
            Objects.requireNonNull(deadLetterRetention, "deadLetterRetention");
            Objects.requireNonNull(quarantineRetention, "quarantineRetention");
            new LeasePolicy(clockSkewMargin, minimumLease, recordTtl, effectMargin); // its own checks
        }

        /** How leases are sized and how long records count. */
        public LeasePolicy leasePolicy() {
            return new LeasePolicy(clockSkewMargin, minimumLease, recordTtl, effectMargin);
        }

        /** Every way a message can come back, which the claims must outlive. */
        public ClaimRetention retention() {
            return new ClaimRetention(sourceRetention, deadLetterRetention, quarantineRetention);
        }
    }

    /**
     * The retry backoff of TRANSIENT failures: {@code delay = round(min(maxDelay, base * multiplier^(attempt-1)) *
     * rng())}.
     *
     * @param base       {@code REDRIVE_BACKOFF_BASE}: the cap of the first retry's delay
     * @param multiplier {@code REDRIVE_BACKOFF_MULTIPLIER}: how much the cap grows per attempt (at least 1)
     * @param maxDelay   {@code REDRIVE_BACKOFF_MAX_DELAY}: the largest delay (at most 12 h, SQS's visibility limit)
     * @param seed       {@code REDRIVE_BACKOFF_SEED}: seeds the jitter with the reproducible mulberry32 generator
     *                   instead of a secure random source; tests, benchmarks and demos only
     */
    public record Backoff(Duration base, double multiplier, Duration maxDelay, Optional<Integer> seed) {

        public Backoff {
            Objects.requireNonNull(seed, "seed");
            new FullJitterBackoff(base, multiplier, maxDelay); // its own checks
        }

        public FullJitterBackoff policy() {
            return new FullJitterBackoff(base, multiplier, maxDelay);
        }
    }

    /**
     * How a batch of SQS records is processed.
     *
     * @param concurrency     {@code REDRIVE_BATCH_CONCURRENCY}: records of a standard-queue batch (or FIFO message
     *                        groups) processed at once (below 1 counts as 1)
     * @param deadlineMargin  {@code REDRIVE_BATCH_DEADLINE_MARGIN}: kept back from the invocation's deadline for the
     *                        queue calls and the response (never more than a quarter of the time left)
     * @param maxReceiveCount {@code REDRIVE_BATCH_MAX_RECEIVE_COUNT}: the source queue's {@code maxReceiveCount}
     */
    public record Batch(int concurrency, Duration deadlineMargin, int maxReceiveCount) {
        public Batch {
            Objects.requireNonNull(deadlineMargin, "deadlineMargin");
        }
    }

    /**
     * Where messages that no retry can fix are sent.
     *
     * @param queueUrl {@code REDRIVE_DEAD_LETTERS_QUEUE_URL}: the source queue's dead-letter queue; absent, it is read
     *                 once from the source queue's redrive policy
     */
    public record DeadLetters(Optional<String> queueUrl) {
        public DeadLetters {
            Objects.requireNonNull(queueUrl, "queueUrl");
        }
    }

    /**
     * Payloads larger than SQS's 1 MiB, by S3 claim check (the SQS Extended Client Library's format).
     *
     * @param bucket          {@code REDRIVE_CLAIM_CHECKS_BUCKET}: where claim checks are read from and checked in;
     *                        absent, a message marked as a claim check is a SCHEMA dead letter
     * @param readableBuckets {@code REDRIVE_CLAIM_CHECKS_READABLE_BUCKETS}: further buckets claim checks may be read
     *                        from, comma-separated
     * @param kmsKeyId        {@code REDRIVE_CLAIM_CHECKS_KMS_KEY_ID}: the KMS key of checked-in payloads
     * @param cleanup         {@code REDRIVE_CLAIM_CHECKS_CLEANUP}: {@code LIFECYCLE} (the bucket's lifecycle rule
     *                        expires payloads) or {@code AFTER_APPLY} (deleted once applied; one consumer per queue)
     */
    public record ClaimChecks(
            Optional<String> bucket,
            List<String> readableBuckets,
            Optional<String> kmsKeyId,
            ClaimCheckCleanup cleanup) {

        public ClaimChecks {
            Objects.requireNonNull(bucket, "bucket");
            readableBuckets = List.copyOf(readableBuckets);
            Objects.requireNonNull(kmsKeyId, "kmsKeyId");
            Objects.requireNonNull(cleanup, "cleanup");
        }

        public ClaimCheckSettings settings() {
            return new ClaimCheckSettings(bucket, readableBuckets, kmsKeyId);
        }
    }

    /**
     * Redrive's own AWS calls (not an effect's).
     *
     * @param maxAttempts {@code REDRIVE_AWS_MAX_ATTEMPTS}: attempts in all of one call, 1 to 5
     */
    public record Aws(int maxAttempts) {
        public Aws {
            PlatformClients.retryStrategy(maxAttempts); // its own checks
        }
    }

    /**
     * The circuit breakers of the effects' dependencies.
     *
     * @param table        {@code REDRIVE_BREAKERS_TABLE}: the table of their shared state (the control table)
     * @param byDependency the breakers configured by {@code REDRIVE_BREAKERS_<DEPENDENCY>_<SETTING>} (dependency
     *                     {@code mail-provider} is {@code MAIL_PROVIDER}); any other dependency has the defaults
     */
    public record Breakers(String table, Map<String, Breaker> byDependency) {

        public Breakers {
            Objects.requireNonNull(table, "table");
            byDependency = Map.copyOf(new TreeMap<>(byDependency));
        }

        /** The breaker of {@code dependency}: as configured, or the defaults. */
        public Breaker of(String dependency) {
            return byDependency.getOrDefault(dependency, Breaker.DEFAULT);
        }
    }

    /**
     * One dependency's circuit breaker, {@code REDRIVE_BREAKERS_<DEPENDENCY>_}:
     * {@code ENABLED}, {@code CONSECUTIVE_FAILURES}, {@code FAILURE_RATE}, {@code WINDOW}, {@code OPEN_PERIOD},
     * {@code MAX_OPEN_PERIOD}, {@code PROBE_LEASE} (the {@link BreakerPolicy}) and {@code CACHE_TTL}.
     *
     * @param enabled  whether the breaker guards the dependency's calls at all
     * @param policy   when it opens, for how long, how it probes
     * @param cacheTtl how long a sandbox trusts its last read of the shared state
     */
    public record Breaker(boolean enabled, BreakerPolicy policy, Duration cacheTtl) {

        /** A dependency no variable names. */
        public static final Breaker DEFAULT = BreakerVariables.read("default", Map.of());

        public Breaker {
            Objects.requireNonNull(policy, "policy");
            Objects.requireNonNull(cacheTtl, "cacheTtl");
        }
    }

    /**
     * The consumer's build: its version is recorded with each failure (on the claim, on a dead letter the consumer
     * sends, in the quarantine), and the console marks where it changed.
     *
     * @param version {@code REDRIVE_BUILD_VERSION} (a release, a commit, an image tag: at most {@value FailureRecord#MAX_VERSION_LENGTH}
     *                characters, one line); else {@code AWS_LAMBDA_FUNCTION_VERSION}, which Lambda sets to
     *                the published version number, unless it is {@code $LATEST} (which names no build); else
     *                {@value FailureRecord#UNKNOWN_VERSION}
     */
    public record Build(String version) {

        /** The variable Lambda sets to the function's published version, or {@code $LATEST}. */
        public static final String FUNCTION_VERSION_VARIABLE = "AWS_LAMBDA_FUNCTION_VERSION";

        /** The version {@code AWS_LAMBDA_FUNCTION_VERSION} holds when the unpublished function runs: no build. */
        public static final String UNPUBLISHED = "$LATEST";

        public Build {
            Objects.requireNonNull(version, "version");
            FailureRecord.versionProblem(version).ifPresent(problem -> {
                throw new IllegalArgumentException("REDRIVE_BUILD_VERSION " + problem
                        + (version.isBlank() ? "; leave it unset for the Lambda function version" : ""));
            });
        }

        /**
         * The build a function runs: {@code configured} ({@code REDRIVE_BUILD_VERSION}) when set, else
         * {@code functionVersion} ({@code AWS_LAMBDA_FUNCTION_VERSION}) unless blank or {@value #UNPUBLISHED}, else
         * {@value FailureRecord#UNKNOWN_VERSION}.
         */
        public static Build of(Optional<String> configured, Optional<String> functionVersion) {
            Optional<String> set = configured.map(String::strip).filter(v -> !v.isEmpty());
            if (set.isPresent()) {
                return new Build(set.get());
            }
            return new Build(functionVersion
                    .map(String::strip)
                    .filter(v -> !v.isEmpty() && !v.equals(UNPUBLISHED))
                    .orElse(FailureRecord.UNKNOWN_VERSION));
        }
    }
}
