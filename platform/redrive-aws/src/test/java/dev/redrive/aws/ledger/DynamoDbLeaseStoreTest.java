package dev.redrive.aws.ledger;

import dev.redrive.core.lease.LeaseStore;
import dev.redrive.testing.lease.LeaseStoreContract;
import dev.redrive.testing.localaws.LocalAws;
import org.junit.jupiter.api.BeforeAll;

class DynamoDbLeaseStoreTest extends LeaseStoreContract {
    private static DynamoDbLeaseStore store;

    @BeforeAll
    static void table() {
        LocalAws aws = LocalAws.shared();
        store = new DynamoDbLeaseStore(aws.dynamoDb(), ControlTables.control(aws));
    }

    @Override
    protected LeaseStore store() {
        return store;
    }
}
