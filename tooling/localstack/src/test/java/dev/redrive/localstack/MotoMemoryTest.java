package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * moto's memory stays with what its tables hold. moto registers every model instance it creates for its dashboard
 * ({@code /moto-api/data.json}) and frees none until a reset: every DynamoDB item put, every copy an update, a query,
 * a scan or its own transaction rollback makes. The launcher stops that registration for DynamoDB items.
 */
@LocalAwsTest(resetBeforeEach = true)
class MotoMemoryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void motoKeepsNoDynamoDbItemBesidesTheOnesItsTablesHold(LocalAws aws) throws Exception {
        assumeThat(aws.motoPid()).as("moto serves DynamoDB").isPresent();
        DynamoDbClient ddb = aws.dynamoDb();
        createTable(ddb, "claims");
        for (int i = 0; i < 20; i++) {
            Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("k" + i));
            ddb.putItem(b -> b.tableName("claims").item(key).conditionExpression("attribute_not_exists(pk)"));
            ddb.updateItem(b -> b.tableName("claims")
                    .key(key)
                    .updateExpression("SET v = :v")
                    .expressionAttributeValues(Map.of(":v", AttributeValue.fromN("1"))));
            TransactWriteItem put = TransactWriteItem.builder()
                    .put(p -> p.tableName("claims").item(key).conditionExpression("attribute_not_exists(pk)"))
                    .build();
            try {
                ddb.transactWriteItems(b -> b.transactItems(put));
            } catch (TransactionCanceledException expected) {
                // the key exists: cancelled, as meant
            }
            ddb.scan(b -> b.tableName("claims"));
        }
        for (int i = 0; i < 10; i++) {
            String pk = "k" + i;
            ddb.deleteItem(b -> b.tableName("claims").key(Map.of("pk", AttributeValue.fromS(pk))));
        }

        JsonNode registered = motoDashboardData(aws.dynamoDbEndpoint()).path("dynamodb");

        assertThat(ddb.scan(b -> b.tableName("claims")).count()).isEqualTo(10);
        assertThat(registered.path("Item"))
                .as("DynamoDB items moto registered for its dashboard")
                .isEmpty();
        assertThat(registered.path("Table"))
                .as("tables moto registered (its own transaction rollback registered a copy each time)")
                .hasSize(1);
    }

    static JsonNode motoDashboardData(URI moto) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(moto.resolve("/moto-api/data.json"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** A table keyed by a string {@code pk} (the one LocalAwsServicesTest, now in redrive-testing, creates). */
    private static void createTable(DynamoDbClient ddb, String name) {
        ddb.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S)));
    }
}
