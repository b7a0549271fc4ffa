package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * {@link TransactWriteContract} on the local AWS every test uses (moto behind the launcher, which rolls a cancelled
 * transaction back from an undo log of the items it touched), plus what only that launcher gets right.
 */
@LocalAwsTest
class MotoTransactionsTest extends TransactWriteContract {

    private static LocalAws aws;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void clients(LocalAws shared) {
        aws = shared;
        streams = DynamoDbStreamsClient.builder()
                .endpointOverride(aws.dynamoDbEndpoint())
                .region(aws.region())
                .credentialsProvider(aws.credentials())
                .build();
    }

    @AfterAll
    static void close() {
        streams.close();
    }

    @Override
    DynamoDbClient dynamoDb() {
        return aws.dynamoDb();
    }

    @Override
    DynamoDbStreamsClient streams() {
        return streams;
    }

    @Override
    void reset() {
        aws.reset();
    }

    /**
     * A stream reader holds its shard iterator across a cancelled transaction, the way a stream poller does. moto's own
     * rollback swapped the table for a deep copy made before the transaction, copy of its stream shard included: the
     * held iterator then read the cancelled transaction's records from the old shard and never saw a later write.
     */
    @Test
    void aStreamReaderHoldingItsIteratorSeesNothingOfACancelledTransactionAndEveryLaterWrite() {
        String arn = dynamoDb()
                .describeTable(b -> b.tableName(TransactFixtures.ORDERS))
                .table()
                .latestStreamArn();
        String shard = streams.describeStream(b -> b.streamArn(arn))
                .streamDescription()
                .shards()
                .get(0)
                .shardId();
        String iterator = streams.getShardIterator(
                        b -> b.streamArn(arn).shardId(shard).shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                .shardIterator();
        TableState.Page seed = TableState.drain(streams, iterator);
        assertThat(seed.records()).hasSize(4);

        cancelled(List.of(
                new TransactFixtures.Orders().put("o-phantom", "placed", 1, null),
                new TransactFixtures.Orders().conditionCheck("o1", "attribute_not_exists(pk)", false)));
        dynamoDb()
                .putItem(
                        b -> b.tableName(TransactFixtures.ORDERS).item(TransactFixtures.order("o-later", "placed", 2)));

        List<String> read = TableState.drain(streams, seed.next()).records();
        assertThat(read).hasSize(1);
        assertThat(read.get(0)).startsWith("{event=INSERT").contains("o-later").doesNotContain("o-phantom");
    }

    @Test
    void theLauncherRollsTransactionsBackFromAnUndoLogOnTheMotoItWasReviewedAgainst() {
        String transactions = aws.motoTransactions().orElse(null);
        assumeThat(transactions).as("moto serves DynamoDB").isNotNull();
        assumeThat(transactions)
                .as("the moto the undo log was reviewed against")
                .endsWith(" moto=5.2.1");
        assertThat(transactions).isEqualTo("rollback=undo-log moto=5.2.1");
    }

    /**
     * moto ignores {@code ClientRequestToken}: a repeated transaction is applied again, where AWS would answer the
     * repeat (within ten minutes) without applying it. Code that relies on the token cannot be shown to on moto.
     */
    @Test
    void motoIgnoresTheClientRequestTokenSoARepeatIsAppliedAgain() {
        assumeThat(aws.motoPid()).as("moto serves DynamoDB").isPresent();
        TransactWriteItem increment = TransactWriteItem.builder()
                .update(u -> u.tableName(TransactFixtures.ORDERS)
                        .key(Map.of("pk", AttributeValue.fromS("o1")))
                        .updateExpression("ADD amount :one")
                        .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))))
                .build();

        for (int i = 0; i < 2; i++) {
            dynamoDb().transactWriteItems(b -> b.transactItems(increment).clientRequestToken("token-1"));
        }

        assertThat(dynamoDb()
                        .getItem(b -> b.tableName(TransactFixtures.ORDERS)
                                .key(Map.of("pk", AttributeValue.fromS("o1")))
                                .consistentRead(true))
                        .item()
                        .get("amount")
                        .n())
                .isEqualTo("14");
    }
}
