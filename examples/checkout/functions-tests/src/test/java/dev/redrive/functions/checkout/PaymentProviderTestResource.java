package dev.redrive.functions.checkout;

import dev.redrive.localstack.PaymentProviderSimulator;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * The payment provider simulator for {@code @QuarkusTest}s of the checkout: one per test run, on a free loopback port,
 * its URL given to the application; authorizations time out after 1 s so a hang is quick to test. Declared with
 * {@code scope = GLOBAL} (on {@link CheckoutHandlerTest}): every {@code @QuarkusTest} of the module then has the same
 * resources, so one application boot serves them all.
 */
public final class PaymentProviderTestResource implements QuarkusTestResourceLifecycleManager {

    static PaymentProviderSimulator simulator;

    @Override
    public synchronized Map<String, String> start() {
        if (simulator == null) {
            simulator = PaymentProviderSimulator.start();
        }
        return Map.of(
                "redrive.checkout.payments.url",
                simulator.url().toString(),
                "redrive.checkout.payments.timeout",
                "PT1S");
    }

    @Override
    public void stop() {
        // shared by the test classes of the run; its threads are daemons
    }
}
