package dev.redrive.functions.checkout;

import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.GhostReconciliation;
import dev.redrive.checkout.placing.InMemoryCheckoutStore;
import dev.redrive.checkout.placing.InMemoryPaymentProvider;
import dev.redrive.lambda.EmfOutput;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * Drives the checkout handler on the fakes through a placed order and a provider that does not answer, and the
 * reconciliation handler through a run over the abandoned attempt that leaves.
 */
public final class CheckoutProbe {

    private CheckoutProbe() {}

    /** A 201 and a 503, their EMF written to {@code emf}. */
    public static void answer(EmfOutput emf) {
        InMemoryCheckoutStore store = new InMemoryCheckoutStore();
        store.stock("sku-mug", 10, 100, "EUR");
        InMemoryPaymentProvider payments = new InMemoryPaymentProvider();
        CheckoutHandler handler = new CheckoutHandler(
                new CheckoutService(store, payments, CheckoutService.Settings.DEFAULT), Clock.systemUTC(), emf);
        String body = "{\"customer\":{\"email\":\"ada@example.com\"},\"items\":[{\"sku\":\"sku-mug\",\"quantity\":1}],"
                + "\"currency\":\"EUR\",\"paymentToken\":\"tok_visa\"}";
        handler.handleRequest(CheckoutHandlerTest.post("/orders", "k-placed", body), null);
        payments.unavailable(1, InMemoryPaymentProvider.Unanswered.BEFORE_AUTHORIZING);
        handler.handleRequest(CheckoutHandlerTest.post("/orders", "k-unanswered", body), null);
        if (store.outbox(CheckoutService.orderIdOf("k-placed")).isEmpty()) {
            throw new IllegalStateException("the probe's order was not placed");
        }
        Instant later = Instant.now().plus(Duration.ofHours(1));
        new CheckoutReconciliationHandler(
                        new GhostReconciliation(store, payments, Duration.ofMinutes(15), Duration.ofSeconds(2)),
                        Duration.ofSeconds(30),
                        100,
                        Clock.fixed(later, ZoneOffset.UTC),
                        emf)
                .handleRequest(java.util.Map.of(), null);
    }
}
