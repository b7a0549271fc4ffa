package dev.redrive.checkout.placing;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-memory fake of the payment provider, with a payment API's idempotency: the same key and request get the
 * same authorization, another request under a key is refused (an {@link IllegalStateException}: a checkout bug). A
 * token starting {@code tok_decline} is declined; {@link #unavailable} makes the next calls go unanswered, once
 * authorized or not ({@link Unanswered}), and {@link #voidsUnanswered} the next voids.
 */
public final class InMemoryPaymentProvider implements PaymentProvider {

    /** When a call is unanswered: before the provider authorized it, or after (the answer was lost). */
    public enum Unanswered {
        BEFORE_AUTHORIZING,
        AFTER_AUTHORIZING
    }

    /** An authorization the provider keeps. */
    public record Charge(String authorizationId, Authorization request, boolean voided) {}

    private final Map<String, Charge> byKey = new HashMap<>();
    private final AtomicInteger calls = new AtomicInteger();
    private Unanswered unanswered;
    private int unansweredCalls;
    private int unansweredVoids;

    @Override
    public synchronized Outcome authorize(Authorization request, Duration timeout) {
        calls.incrementAndGet();
        Objects.requireNonNull(timeout, "timeout");
        Charge existing = byKey.get(request.idempotencyKey());
        if (existing != null && !existing.request().equals(request)) {
            throw new IllegalStateException("idempotency key reused with another request: " + request.idempotencyKey());
        }
        if (unansweredCalls > 0 && unanswered == Unanswered.BEFORE_AUTHORIZING) {
            unansweredCalls--;
            return new Unavailable("the provider did not answer within " + timeout);
        }
        if (request.paymentToken().startsWith("tok_decline")) {
            return new Declined("card_declined");
        }
        Charge charge = existing != null ? existing : new Charge("auth-" + (byKey.size() + 1), request, false);
        byKey.put(request.idempotencyKey(), charge);
        if (unansweredCalls > 0) {
            unansweredCalls--;
            return new Unavailable("the provider's answer was lost after " + timeout);
        }
        return new Authorized(charge.authorizationId());
    }

    @Override
    public synchronized VoidOutcome voidAuthorization(String idempotencyKey, Duration timeout) {
        calls.incrementAndGet();
        if (unansweredVoids > 0) {
            unansweredVoids--;
            return new VoidFailed("the provider did not answer the void within " + timeout);
        }
        Charge charge = byKey.get(idempotencyKey);
        if (charge == null) {
            return new NeverAuthorized();
        }
        byKey.put(idempotencyKey, new Charge(charge.authorizationId(), charge.request(), true));
        return new Voided();
    }

    /** The next {@code calls} voids go unanswered (nothing voided). */
    public synchronized void voidsUnanswered(int calls) {
        this.unansweredVoids = calls;
    }

    /** The next {@code calls} authorizations go unanswered, {@code when}. */
    public synchronized void unavailable(int calls, Unanswered when) {
        this.unansweredCalls = calls;
        this.unanswered = when;
    }

    /** The authorizations kept (voided ones too). */
    public synchronized List<Charge> charges() {
        return List.copyOf(byKey.values());
    }

    /** Calls made to it. */
    public int calls() {
        return calls.get();
    }
}
