package dev.redrive.aws.ledger;

import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.testing.breaker.BreakerStoreContract;
import dev.redrive.testing.localaws.LocalAws;
import org.junit.jupiter.api.BeforeAll;

class DynamoDbBreakerStoreTest extends BreakerStoreContract {
    private static DynamoDbBreakerStore store;

    @BeforeAll
    static void table() {
        LocalAws aws = LocalAws.shared();
        store = new DynamoDbBreakerStore(aws.dynamoDb(), ControlTables.control(aws));
    }

    @Override
    protected BreakerStore store() {
        return store;
    }
}
