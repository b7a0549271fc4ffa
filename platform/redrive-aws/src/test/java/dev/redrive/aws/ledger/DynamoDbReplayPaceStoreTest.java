package dev.redrive.aws.ledger;

import dev.redrive.core.replay.ReplayPaceStore;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.replay.ReplayPaceStoreContract;
import org.junit.jupiter.api.BeforeAll;

class DynamoDbReplayPaceStoreTest extends ReplayPaceStoreContract {
    private static String table;

    @BeforeAll
    static void table() {
        table = ControlTables.control(LocalAws.shared());
    }

    /** A store per test, as each sweeper and CLI has its own: what one saw last is not another's. */
    private final DynamoDbReplayPaceStore store =
            new DynamoDbReplayPaceStore(LocalAws.shared().dynamoDb(), table);

    @Override
    protected ReplayPaceStore store() {
        return store;
    }

    @Override
    protected ReplayPaceStore anotherBooker() {
        return new DynamoDbReplayPaceStore(LocalAws.shared().dynamoDb(), table);
    }

    @Override
    protected int rounds() {
        return 20;
    }
}
