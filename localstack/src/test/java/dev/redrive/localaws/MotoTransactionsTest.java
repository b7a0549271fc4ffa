package dev.redrive.localaws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * {@link TransactWriteContract} on the local AWS every test uses (moto behind the serializing launcher).
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
