package dev.redrive.checkout.placing;

class InMemoryCheckoutStoreTest extends CheckoutStoreContract {
    private final InMemoryCheckoutStore store = new InMemoryCheckoutStore();

    @Override
    protected CheckoutStore store() {
        return store;
    }

    @Override
    protected Outbox outbox() {
        return store;
    }
}
