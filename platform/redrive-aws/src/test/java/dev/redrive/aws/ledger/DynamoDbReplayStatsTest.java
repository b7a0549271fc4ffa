package dev.redrive.aws.ledger;

import dev.redrive.core.sweeper.ReplayStats;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.sweeper.ReplayStatsContract;

/** The replay statistics contract on DynamoDB: a fresh control table per test. */
class DynamoDbReplayStatsTest extends ReplayStatsContract {

    @Override
    protected ReplayStats newStats() {
        LocalAws aws = LocalAws.shared();
        return new DynamoDbReplayStats(aws.dynamoDb(), ControlTables.control(aws));
    }
}
