package dev.redrive.core.payload;

class InMemoryClaimChecksTest extends ClaimChecksContract {
    private final InMemoryClaimChecks store = new InMemoryClaimChecks();

    @Override
    protected ClaimChecks store() {
        return store;
    }
}
