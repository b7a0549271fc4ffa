package dev.redrive.checkout.placing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where the checkout keeps its attempts, its stock and reservations, and its orders with their outbox (on AWS: one
 * DynamoDB table with a stream, which the relay reads). Every write that decides something is conditional: a
 * reservation is made once per order and line, an order once, an attempt only by the invocation holding its lease.
 */
public interface CheckoutStore {

    /**
     * Begins (or takes over) the attempt under {@code key}: taken when there is none, or when one with the same
     * fingerprint is STARTED or AUTHORIZED and its lease has lapsed (the token then grows by one); never one that is
     * {@link CheckoutAttempt.Status#VOIDING}. One conditional write.
     */
    Begin begin(String key, String fingerprint, String orderId, Instant now, Duration lease);

    /** What {@link #begin} found. */
    sealed interface Begin {
        CheckoutAttempt attempt();
    }

    /** This invocation holds the attempt (new, or taken over from one whose lease lapsed). */
    record Started(CheckoutAttempt attempt) implements Begin {}

    /** Another invocation holds it, its lease running. */
    record InFlight(CheckoutAttempt attempt) implements Begin {}

    /** It has its final answer. */
    record Finished(CheckoutAttempt attempt) implements Begin {}

    /** It is being voided ({@link CheckoutAttempt.Status#VOIDING}): it will never be placed; its answer is 410. */
    record Voiding(CheckoutAttempt attempt) implements Begin {}

    /** The key was first used with another request body. */
    record KeyReused(CheckoutAttempt attempt) implements Begin {}

    /**
     * Reserves {@code lines} for {@code orderId} at their current prices in {@code currency}, all or none; once per
     * order (a second call finds the reservation made and returns it, at the prices it holds, or {@link Released} if
     * its stock was given back: an order is reserved once, never again after a release).
     */
    Reservation reserve(String orderId, List<OrderLine> lines, String currency, Instant now);

    /** What {@link #reserve} did. */
    sealed interface Reservation {}

    /** Reserved (now or before), at these unit prices. */
    record Reserved(List<PlacedOrder.PricedLine> lines) implements Reservation {}

    /** Not reserved: these skus are short, unknown, or not sold in the currency. Nothing was reserved. */
    record OutOfStock(List<String> skus) implements Reservation {}

    /**
     * Reserved before, and released since (the reconciliation voided the checkout, or it was declined): the order
     * cannot be placed, and nothing is reserved again.
     */
    record Released() implements Reservation {}

    /**
     * Moves the attempt held with {@code token} to {@link CheckoutAttempt.Status#VOIDING}, taking it with the next
     * token and a lease until {@code now + lease} (whether or not the lease of {@code token} has lapsed: the
     * reconciliation passes the token it listed, a client's retry its own). From then on no invocation can place it.
     * One conditional write.
     *
     * @return the attempt as now held; empty, writing nothing, when another invocation took it over (its token is no
     *     longer {@code token}) or it is finished
     */
    Optional<CheckoutAttempt> voiding(String key, long token, Instant now, Duration lease);

    /**
     * Puts stock back: every line of {@code orderId} still held is released, in one write with a check that the
     * attempt under {@code key} is still held with {@code token} (idempotent).
     *
     * @return false, releasing nothing, when another invocation took the attempt over
     */
    boolean release(String key, long token, String orderId, Instant now);

    /**
     * Records the authorization of the attempt held with {@code token}.
     *
     * @return false when another invocation took the attempt over (nothing written)
     */
    boolean authorized(String key, long token, String authorizationId);

    /**
     * Ends the attempt held with {@code token} with a final answer that is not an order (DECLINED, OUT_OF_STOCK,
     * VOIDED) and its reason.
     *
     * @return false when another invocation took the attempt over, or it was placed (nothing written)
     */
    boolean finish(String key, long token, CheckoutAttempt.Status status, String reason);

    /**
     * Lets the attempt held with {@code token} go as of {@code leaseEnd} (now, or earlier), unfinished: its provider
     * did not answer, and the client's retry (or, for one VOIDING, the next reconciliation) takes it over at once.
     */
    void letGo(String key, long token, Instant leaseEnd);

    /**
     * In one transaction: writes {@code order} (once), its outbox {@code event}, confirms its reservation and marks
     * the attempt held with {@code token} PLACED.
     *
     * @return false, writing nothing, when another invocation took the attempt over or placed the order first
     */
    boolean place(String key, long token, PlacedOrder order, OutboxEvent event);

    /**
     * Unfinished attempts (STARTED, AUTHORIZED or VOIDING) whose lease ended before {@code leaseEndedBefore}, at most
     * {@code limit}, longest abandoned first: checkouts whose client never came back, which the reconciliation voids.
     */
    List<CheckoutAttempt> abandoned(Instant leaseEndedBefore, int limit);

    /** The order, once placed. */
    Optional<PlacedOrder> order(String orderId);

    /** The order's outbox events, by sequence. */
    List<OutboxEvent> outbox(String orderId);

    /** Stock of {@code sku}: how many are available, at which unit price; for setting up and checking. */
    void stock(String sku, long available, long unitPriceMinor, String currency);

    /** How many of {@code sku} are available (0 for an unknown sku). */
    long available(String sku);
}
