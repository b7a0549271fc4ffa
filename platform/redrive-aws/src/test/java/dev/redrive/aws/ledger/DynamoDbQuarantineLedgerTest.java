package dev.redrive.aws.ledger;

import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.quarantine.QuarantineLedgerContract;
import java.time.Clock;
import org.junit.jupiter.api.BeforeAll;

class DynamoDbQuarantineLedgerTest extends QuarantineLedgerContract {
    private static LocalAws aws;
    private static String control;
    private static String quarantine;

    @BeforeAll
    static void tables() {
        aws = LocalAws.shared();
        control = ControlTables.control(aws);
        quarantine = ControlTables.quarantine(aws);
    }

    @Override
    protected QuarantineLedger ledger(Clock clock) {
        return new DynamoDbQuarantineLedger(aws.dynamoDb(), quarantine, control, clock);
    }

    @Override
    protected LeaseStore leases() {
        return new DynamoDbLeaseStore(aws.dynamoDb(), control);
    }
}
