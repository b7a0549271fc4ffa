package dev.redrive.checkout;

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
}
