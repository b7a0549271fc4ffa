package dev.redrive.checkout.placing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.checkout.OrderPlaced;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The checkout, the one facade every caller uses ({@code POST /orders} on Lambda, the tests, the local run). It keeps
 * synchronous only what decides whether the order succeeded, in this order:
 * <ol>
 *   <li>begin the attempt under the Idempotency-Key (a conditional write: a duplicate costs no read);</li>
 *   <li>reserve the stock, once per order;</li>
 *   <li>authorize the payment under the same key (a retry finds the same authorization: never a second charge);</li>
 *   <li>in one transaction: the order, its OrderPlaced outbox event (v2), the confirmed reservation, the attempt
 *       PLACED.</li>
 * </ol>
 * A crash between any two steps leaves an attempt that the client's retry with the same key finishes (after the
 * lease), or that the reconciliation voids; once the reconciliation has begun voiding it, a retry is answered 410 and
 * never places it. Time is passed in; the deadline bounds the provider call.
 */
public final class CheckoutService {

    /** The sequence of an order's OrderPlaced event: its first. */
    public static final long ORDER_PLACED_SEQUENCE = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final CheckoutStore store;
    private final PaymentProvider payments;
    private final Settings settings;
    private final AttemptVoiding voiding;

    /**
     * How long things take.
     *
     * @param providerTimeout the longest a payment call may take (it also ends before the deadline)
     * @param leaseMargin     how long past its deadline an invocation holds its attempt (a frozen sandbox's writes are
     *                        fenced after it)
     * @param retryAfter      the Retry-After of a 503 or a 409 in progress
     */
    public record Settings(Duration providerTimeout, Duration leaseMargin, Duration retryAfter) {
        public static final Settings DEFAULT =
                new Settings(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(2));

        public Settings {
            Objects.requireNonNull(providerTimeout, "providerTimeout");
            Objects.requireNonNull(leaseMargin, "leaseMargin");
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }

    public CheckoutService(CheckoutStore store, PaymentProvider payments, Settings settings) {
        this.store = Objects.requireNonNull(store, "store");
        this.payments = Objects.requireNonNull(payments, "payments");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.voiding = new AttemptVoiding(store, payments, settings.providerTimeout());
    }

    /**
     * Places the order {@code request} asks for under {@code key}, by {@code deadline} (the invocation's end).
     *
     * @return the answer; the same one for every retry of the same key and body once it is final
     */
    public CheckoutOutcome place(String key, CheckoutRequest request, Instant now, Instant deadline) {
        String orderId = orderIdOf(key);
        Duration lease = Duration.between(now, deadline).plus(settings.leaseMargin());
        CheckoutStore.Begin begun = store.begin(key, request.fingerprint(), orderId, now, lease);
        CheckoutAttempt attempt = begun.attempt();
        if (begun instanceof CheckoutStore.KeyReused) {
            return new CheckoutOutcome.KeyReused();
        }
        if (begun instanceof CheckoutStore.InFlight) {
            return new CheckoutOutcome.InProgress(retryAfter(Duration.between(now, attempt.leaseUntil())));
        }
        if (begun instanceof CheckoutStore.Finished) {
            return answerOf(attempt);
        }
        if (begun instanceof CheckoutStore.Voiding) {
            return new CheckoutOutcome.Abandoned(); // being voided: never placed, whatever the provider would answer
        }
        CheckoutStore.Reservation reservation = store.reserve(orderId, request.items(), request.currency(), now);
        if (reservation instanceof CheckoutStore.OutOfStock short_) {
            store.finish(key, attempt.token(), CheckoutAttempt.Status.OUT_OF_STOCK, String.join(",", short_.skus()));
            return new CheckoutOutcome.OutOfStock(short_.skus());
        }
        if (reservation instanceof CheckoutStore.Released) {
            // declined (or voided) and that invocation died before it could end the attempt: it can never be placed.
            // End it VOIDED the one way every path does, voiding first whatever was authorized under its key; if the
            // provider does not confirm, the reconciliation finishes it (it stays VOIDING: no retry can place it)
            store.voiding(key, attempt.token(), now, lease)
                    .ifPresent(held ->
                            voiding.end(held, "its reservation was released", now, deadline, attempt.startedAt()));
            return new CheckoutOutcome.Abandoned();
        }
        CheckoutStore.Reserved reserved = (CheckoutStore.Reserved) reservation;
        long amount = reserved.lines().stream()
                .mapToLong(PlacedOrder.PricedLine::amountMinor)
                .reduce(0L, Math::addExact);
        Duration untilDeadline = Duration.between(now, deadline);
        Duration timeout =
                untilDeadline.compareTo(settings.providerTimeout()) < 0 ? untilDeadline : settings.providerTimeout();
        PaymentProvider.Outcome paid = timeout.isNegative() || timeout.isZero()
                ? new PaymentProvider.Unavailable("no time left before the deadline")
                : payments.authorize(
                        new PaymentProvider.Authorization(
                                key, orderId, request.paymentToken(), amount, request.currency()),
                        timeout);
        if (paid instanceof PaymentProvider.Declined declined) {
            store.release(key, attempt.token(), orderId, now);
            store.finish(key, attempt.token(), CheckoutAttempt.Status.DECLINED, declined.reason());
            return new CheckoutOutcome.Declined(declined.reason());
        }
        if (paid instanceof PaymentProvider.Unavailable) {
            store.letGo(key, attempt.token(), now);
            return new CheckoutOutcome.ProviderUnavailable(settings.retryAfter());
        }
        String authorizationId = ((PaymentProvider.Authorized) paid).authorizationId();
        if (!store.authorized(key, attempt.token(), authorizationId)) {
            return settled(key, orderId, now);
        }
        PlacedOrder order = new PlacedOrder(
                orderId,
                eventIdOf(orderId),
                request.customerEmail(),
                reserved.lines(),
                amount,
                request.currency(),
                now,
                authorizationId);
        if (!store.place(key, attempt.token(), order, orderPlaced(order))) {
            return settled(key, orderId, now);
        }
        return new CheckoutOutcome.Placed(order, false);
    }

    /** The order a key names: {@code o-} and 32 hex digits of its SHA-256, so every retry names the same order. */
    public static String orderIdOf(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return "o-" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** The OrderPlaced event id of an order. */
    public static String eventIdOf(String orderId) {
        return "evt-" + orderId + "-" + ORDER_PLACED_SEQUENCE;
    }

    /** The order's OrderPlaced outbox event: the v2 payload every consumer reads. */
    public static OutboxEvent orderPlaced(PlacedOrder order) {
        ObjectNode payload = JSON.createObjectNode();
        payload.put("eventType", OrderPlaced.EVENT_TYPE);
        payload.put("version", OrderPlaced.CURRENT_VERSION);
        payload.put("eventId", order.eventId());
        payload.put("orderId", order.orderId());
        payload.putObject("customer").put("email", order.customerEmail());
        ObjectNode total = payload.putObject("total");
        total.put("amountMinor", order.amountMinor());
        total.put("currency", order.currency());
        payload.put("placedAt", order.placedAt().toString());
        return new OutboxEvent(
                order.orderId(),
                ORDER_PLACED_SEQUENCE,
                order.eventId(),
                OrderPlaced.EVENT_TYPE,
                payload.toString(),
                order.placedAt());
    }

    /** Another invocation took the attempt over while this one ran: its answer, or in progress. */
    private CheckoutOutcome settled(String key, String orderId, Instant now) {
        return store.order(orderId)
                .<CheckoutOutcome>map(o -> new CheckoutOutcome.Placed(o, true))
                .orElseGet(() -> new CheckoutOutcome.InProgress(settings.retryAfter()));
    }

    private CheckoutOutcome answerOf(CheckoutAttempt attempt) {
        return switch (attempt.status()) {
            case PLACED ->
                new CheckoutOutcome.Placed(
                        store.order(attempt.orderId())
                                .orElseThrow(() -> new IllegalStateException(
                                        "attempt " + attempt.orderId() + " is PLACED but its order is missing")),
                        true);
            case DECLINED -> new CheckoutOutcome.Declined(attempt.reason());
            case OUT_OF_STOCK ->
                new CheckoutOutcome.OutOfStock(List.of(attempt.reason().split(",")));
            case VOIDED -> new CheckoutOutcome.Abandoned();
            case STARTED, AUTHORIZED, VOIDING ->
                throw new IllegalStateException("attempt is not finished: " + attempt.status());
        };
    }

    private Duration retryAfter(Duration leaseLeft) {
        return leaseLeft.compareTo(settings.retryAfter()) > 0 ? leaseLeft : settings.retryAfter();
    }
}
