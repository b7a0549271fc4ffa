package dev.redrive.aws.ledger;

import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.operator.WindowHoldsContract;
import org.junit.jupiter.api.BeforeAll;

/** The holds of maintenance windows on DynamoDB: windows and breakers in one control table, as deployed. */
class DynamoDbWindowHoldsTest extends WindowHoldsContract {
    private static DynamoDbMaintenanceWindows windows;
    private static DynamoDbBreakerStore breakers;

    @BeforeAll
    static void table() {
        LocalAws aws = LocalAws.shared();
        String control = ControlTables.control(aws);
        windows = new DynamoDbMaintenanceWindows(aws.dynamoDb(), control);
        breakers = new DynamoDbBreakerStore(aws.dynamoDb(), control);
    }

    @Override
    protected MaintenanceWindows windows() {
        return windows;
    }

    @Override
    protected BreakerStore breakers() {
        return breakers;
    }
}
