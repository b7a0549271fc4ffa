package dev.redrive.aws.ledger;

import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.MaintenanceWindowsContract;
import dev.redrive.localstack.LocalAws;
import org.junit.jupiter.api.BeforeAll;

class DynamoDbMaintenanceWindowsTest extends MaintenanceWindowsContract {
    private static DynamoDbMaintenanceWindows windows;

    @BeforeAll
    static void table() {
        LocalAws aws = LocalAws.shared();
        windows = new DynamoDbMaintenanceWindows(aws.dynamoDb(), ControlTables.control(aws));
    }

    @Override
    protected MaintenanceWindows windows() {
        return windows;
    }
}
