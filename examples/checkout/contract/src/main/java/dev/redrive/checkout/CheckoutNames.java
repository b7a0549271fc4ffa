package dev.redrive.checkout;

import java.util.Set;

/**
 * The checkout example's names that its functions, its CDK app and the local run agree on: the handlers its one
 * function artifact runs ({@code QUARKUS_LAMBDA_HANDLER}; a consumer's handler name is also its consumer name, part of
 * every claim key it makes) and the dependency its email consumer's shared circuit breaker guards. The platform's own
 * names are in {@code dev.redrive.core.names.RedriveNames}; nothing of the platform knows these.
 */
public final class CheckoutNames {

    private CheckoutNames() {}

    /** The email consumer. */
    public static final String CONFIRMATION_EMAIL = "confirmation-email";

    /** The analytics consumer. */
    public static final String REVENUE_ANALYTICS = "revenue-analytics";

    /** The producer: {@code POST /orders} (a Function URL, API Gateway v2 events). */
    public static final String CHECKOUT = "checkout";

    /** The outbox relay, on the orders table's DynamoDB stream. */
    public static final String OUTBOX_RELAY = "outbox-relay";

    /** The scheduled outbox sweep: republishes what the relay missed. */
    public static final String OUTBOX_SWEEPER = "outbox-sweeper";

    /** The scheduled reconciliation: voids ghost transactions (authorized, never ordered). */
    public static final String CHECKOUT_RECONCILIATION = "checkout-reconciliation";

    /** The email consumer's mail provider, whose circuit breaker the email consumers share. */
    public static final String EMAIL_PROVIDER = "email-provider";

    /**
     * The metrics the checkout function and its reconciliation emit, in Redrive's namespace ({@code Redrive}) beside
     * the platform's ({@code RedriveNames.Metrics}); the example's producer alarms read them.
     */
    public static final class Metrics {

        /** Orders the checkout placed (a retry's same answer is not counted again). */
        public static final String ORDERS_PLACED = "OrdersPlaced";
        /** Checkouts answered 503 because the payment provider did not answer: the provider-errors alarm reads it. */
        public static final String PAYMENT_PROVIDER_UNAVAILABLE = "PaymentProviderUnavailable";

        /** Abandoned checkout attempts the reconciliation ended VOIDED (their authorization voided, stock back). */
        public static final String CHECKOUT_ATTEMPTS_VOIDED = "CheckoutAttemptsVoided";
        /**
         * Abandoned checkout attempts the reconciliation took and could not end (the provider did not confirm the
         * void): their stock stays held and they are retaken first by the next run; the not-ended alarm reads it.
         */
        public static final String CHECKOUT_ATTEMPTS_NOT_ENDED = "CheckoutAttemptsNotEnded";
        /** Abandoned checkout attempts a reconciliation run listed and left to the next (its deadline came first). */
        public static final String CHECKOUT_ATTEMPTS_DEFERRED = "CheckoutAttemptsDeferred";

        /** Every metric the checkout function and its reconciliation emit. */
        public static final Set<String> CHECKOUT_EMITTED = Set.of(
                ORDERS_PLACED,
                PAYMENT_PROVIDER_UNAVAILABLE,
                CHECKOUT_ATTEMPTS_VOIDED,
                CHECKOUT_ATTEMPTS_NOT_ENDED,
                CHECKOUT_ATTEMPTS_DEFERRED);

        private Metrics() {}
    }

    /**
     * The shards of the orders table's two sparse indexes (outbox items not yet published, unfinished checkout
     * attempts): each item's index partition key is its shard, {@code "1"} to {@code "<count>"}, so the index's writes
     * spread over that many partitions; readers query each shard. The CDK app and the functions agree on these.
     */
    public static final class OrderIndexShards {

        /** The shard count when none is set: room for about 2,500 orders a second (the domain's docs say why). */
        public static final int DEFAULT = 8;

        /** The most shards: each reader's run queries every shard, so its queries grow with the count. */
        public static final int MAX = 64;

        /** The functions' variable holding the shard count ({@code redrive.checkout.index-shards}). */
        public static final String VARIABLE = "REDRIVE_CHECKOUT_INDEX_SHARDS";

        /**
         * The functions' variable holding a former, larger shard count whose shards the readers still query while
         * they drain ({@code redrive.checkout.index-shards-draining}).
         */
        public static final String DRAINING_VARIABLE = "REDRIVE_CHECKOUT_INDEX_SHARDS_DRAINING";

        private OrderIndexShards() {}
    }

    /**
     * The orders table's expiry (its TTL): the items that may go carry {@value #ATTRIBUTE}, epoch seconds, and DynamoDB
     * deletes them some time after it. A finished checkout attempt expires {@link #ATTEMPT_VARIABLE} after it finished,
     * a published outbox event {@link #EVENT_VARIABLE} after its publication; an unfinished attempt, an unpublished
     * event, an order, a reservation and stock never carry it. The CDK app and the functions agree on these.
     */
    public static final class OrderRetention {

        /** The orders table's TTL attribute, epoch seconds. */
        public static final String ATTRIBUTE = "expiresAt";

        /** The functions' variable: how long a finished attempt is kept (ISO-8601, {@code P30D}). */
        public static final String ATTEMPT_VARIABLE = "REDRIVE_CHECKOUT_ATTEMPT_RETENTION";

        /** The functions' variable: how long a published outbox event is kept (ISO-8601, {@code P7D}). */
        public static final String EVENT_VARIABLE = "REDRIVE_CHECKOUT_PUBLISHED_EVENT_RETENTION";

        /**
         * A finished attempt's retention when none is set: a client retrying with its Idempotency-Key within it gets
         * the same answer; after it, a new checkout.
         */
        public static final String ATTEMPT_DEFAULT = "P30D";

        /** A published outbox event's retention when none is set. */
        public static final String EVENT_DEFAULT = "P7D";

        private OrderRetention() {}
    }
}
