package dev.redrive.functions.config;

import dev.redrive.checkout.CheckoutNames;
import dev.redrive.checkout.CheckoutNames.OrderIndexShards;
import dev.redrive.sweeper.SweeperFunctionSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The checkout example's configuration, under {@code redrive.} beside the Redrive extension's own
 * ({@link dev.redrive.quarkus.RedriveConfig}: claims, backoff, batch, breakers, …): the checkout's producer and
 * consumers, and the dead-letter sweeper this artifact also runs (handler {@code dlq-sweeper}; a team without a
 * Quarkus artifact deploys {@code redrive-sweeper}'s function instead). Every property can be set as an environment
 * variable ({@code redrive.checkout.orders-table} is {@code REDRIVE_CHECKOUT_ORDERS_TABLE}); the example's CDK app sets
 * them.
 */
@ConfigMapping(prefix = "redrive")
public interface CheckoutConfig {

    /** The checkout example's consumers. */
    Checkout checkout();

    /** The dead-letter sweeper (handler {@code dlq-sweeper}). */
    Sweeper sweeper();

    /**
     * Where the routes document is ({@code REDRIVE_ROUTES}): {@code s3://bucket/key} (the IaC's), a file path, or the
     * JSON. The sweeper reads every consumer's queues and event contract from it at each cold start; without it, the
     * old queues-only {@code redrive.sweeper.routes}, whose replays are refused.
     */
    Optional<String> routes();

    /**
     * The pace of replays, the sweeper's and a person's alike, per lane: the dependency a dead letter's failure names,
     * or {@code consumer:<name>} (see {@code ReplayPace}). The CLI reads the same variables.
     */
    Replays replays();

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

    interface Checkout {
        /**
         * The orders table of the checkout (handler {@code checkout}): attempts by Idempotency-Key, stock,
         * reservations, orders and their outbox ({@code pk}/{@code sk}; its stream carries the outbox to the relay).
         */
        @WithDefault("redrive-orders")
        String ordersTable();

        /**
         * The shards of the orders table's two sparse indexes (outbox items not yet published, unfinished attempts),
         * 1 to {@value dev.redrive.checkout.CheckoutNames.OrderIndexShards#MAX}: an item's index partition key is its
         * shard, so the indexes' writes spread over that many partitions; the outbox sweep and the reconciliation
         * query each shard ({@code dev.redrive.checkout.placing.IndexShards}).
         */
        @WithDefault("" + OrderIndexShards.DEFAULT)
        int indexShards();

        /**
         * After {@link #indexShards} was lowered: the former, larger count, whose shards the readers keep querying
         * until what was written there is published or finished. Absent: the readers query {@link #indexShards}.
         */
        Optional<Integer> indexShardsDraining();

        /**
         * How long a finished checkout attempt stays in the orders table after it finished ({@code expiresAt}, the
         * table's TTL): a client retrying with the same Idempotency-Key after it is no longer answered from it, the
         * checkout begins again. The stack sets it ({@code -c checkoutAttemptRetention}).
         */
        @WithDefault(CheckoutNames.OrderRetention.ATTEMPT_DEFAULT)
        Duration attemptRetention();

        /**
         * How long a published outbox event stays in the orders table after its first publication ({@code expiresAt});
         * an unpublished one never expires. The stack sets it ({@code -c outboxEventRetention}).
         */
        @WithDefault(CheckoutNames.OrderRetention.EVENT_DEFAULT)
        Duration publishedEventRetention();

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
         * How long a tombstone stays in the ledger after its archiving ({@code expiresAt}, the table's TTL); unset:
         * tombstones never expire. The stack sets it ({@code REDRIVE_SWEEPER_TOMBSTONE_TTL}).
         */
        Optional<Duration> tombstoneTtl();

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
}
