package dev.redrive.checkout.placing;

import dev.redrive.localstack.CheckoutTables;
import dev.redrive.testing.localaws.LocalAws;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;

class DynamoDbCheckoutStoreTest extends CheckoutStoreContract {
    private static DynamoDbCheckoutStore store;

    @BeforeAll
    static void table() {
        LocalAws aws = LocalAws.shared();
        String table = "orders-" + UUID.randomUUID();
        CheckoutTables.createOrdersTable(aws.dynamoDb(), table);
        store = new DynamoDbCheckoutStore(aws.dynamoDb(), table);
    }

    @Override
    protected CheckoutStore store() {
        return store;
    }

    @Override
    protected Outbox outbox() {
        return store;
    }
}
