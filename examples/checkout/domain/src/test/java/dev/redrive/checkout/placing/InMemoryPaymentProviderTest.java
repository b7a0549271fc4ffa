package dev.redrive.checkout.placing;

import dev.redrive.checkout.placing.InMemoryPaymentProvider.Unanswered;

class InMemoryPaymentProviderTest extends PaymentProviderContract {
    private final InMemoryPaymentProvider provider = new InMemoryPaymentProvider();

    @Override
    protected PaymentProvider provider() {
        return provider;
    }

    @Override
    protected void unanswered(Unanswered when) {
        provider.unavailable(1, when);
    }

    @Override
    protected long chargesUnder(String key) {
        return provider.charges().stream()
                .filter(c -> c.request().idempotencyKey().equals(key))
                .count();
    }
}
