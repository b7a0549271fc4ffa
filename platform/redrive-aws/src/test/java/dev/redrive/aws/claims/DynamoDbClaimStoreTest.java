package dev.redrive.aws.claims;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.TransactionalClaimStore;
import dev.redrive.testing.claim.ClaimStoreContract;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/** The claim store contract, run against DynamoDB on local AWS. */
class DynamoDbClaimStoreTest extends ClaimStoreContract<TransactWriteItem> {

    private static LocalAws aws;
    private static String claimsTable;
    private static String countersTable;

    @BeforeAll
    static void createTables() {
        aws = LocalAws.shared();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        claimsTable = "contract-claims-" + suffix;
        countersTable = "contract-counters-" + suffix;
        LocalResources.createTable(aws.dynamoDb(), claimsTable);
        LocalResources.createTable(aws.dynamoDb(), countersTable);
    }

    private ConflictInjectingDynamoDb dynamoDb;

    @Override
    protected TransactionalClaimStore<TransactWriteItem> newStore() {
        dynamoDb = new ConflictInjectingDynamoDb(aws.dynamoDb());
        return new DynamoDbClaimStore(dynamoDb, claimsTable);
    }

    @Override
    protected int concurrencyRounds() {
        return 100;
    }

    @Override
    protected TransactWriteItem increment(String counterId, long amount) {
        return TransactWriteItem.builder()
                .update(u -> u.tableName(countersTable)
                        .key(Map.of("pk", AttributeValue.fromS(counterId)))
                        .updateExpression("ADD amount :a")
                        .expressionAttributeValues(Map.of(":a", AttributeValue.fromN(Long.toString(amount)))))
                .build();
    }

    @Override
    protected TransactWriteItem writeWhoseConditionFails(String counterId) {
        return TransactWriteItem.builder()
                .conditionCheck(c -> c.tableName(countersTable)
                        .key(Map.of("pk", AttributeValue.fromS(counterId + "-never")))
                        .conditionExpression("attribute_exists(pk)"))
                .build();
    }

    @Override
    protected long counter(String counterId) {
        Map<String, AttributeValue> item = aws.dynamoDb()
                .getItem(b -> b.tableName(countersTable)
                        .key(Map.of("pk", AttributeValue.fromS(counterId)))
                        .consistentRead(true))
                .item();
        return item == null || !item.containsKey("amount")
                ? 0
                : Long.parseLong(item.get("amount").n());
    }

    @Override
    protected TransactWriteItem insertOnce(String counterId) {
        return TransactWriteItem.builder()
                .put(p -> p.tableName(countersTable)
                        .item(Map.of("pk", AttributeValue.fromS(counterId), "amount", AttributeValue.fromN("1")))
                        .conditionExpression("attribute_not_exists(pk)"))
                .build();
    }

    @Override
    protected TransactWriteItem fencedSet(String counterId, long token) {
        return TransactWriteItem.builder()
                .update(u -> u.tableName(countersTable)
                        .key(Map.of("pk", AttributeValue.fromS(counterId)))
                        .updateExpression("SET amount = :t")
                        .conditionExpression("attribute_not_exists(amount) OR amount < :t")
                        .expressionAttributeValues(Map.of(":t", AttributeValue.fromN(Long.toString(token)))))
                .build();
    }

    @Override
    protected void seedCounter(String counterId, long value) {
        aws.dynamoDb()
                .putItem(b -> b.tableName(countersTable)
                        .item(Map.of(
                                "pk",
                                AttributeValue.fromS(counterId),
                                "amount",
                                AttributeValue.fromN(Long.toString(value)))));
    }

    @Override
    protected void nextTransactionMeetsAConflictOn(ConflictOn where) {
        dynamoDb.conflictOnNextTransaction(
                where == ConflictOn.CLAIM
                        ? ConflictInjectingDynamoDb.Conflict.CLAIM
                        : ConflictInjectingDynamoDb.Conflict.EFFECT);
    }

    @Override
    protected void storeWithoutVersion(ClaimRecord record) {
        Map<String, AttributeValue> item = new java.util.HashMap<>(ClaimItems.toItem(record));
        item.remove(ClaimItems.VERSION);
        aws.dynamoDb().putItem(b -> b.tableName(claimsTable).item(item));
    }

    @Test
    void theStoredItemKeepsTheTtlAttributeInEpochSeconds() {
        var key = newKey();
        store.claim(request(key, "h", T0), T0);
        Map<String, AttributeValue> item = aws.dynamoDb()
                .getItem(b -> b.tableName(claimsTable).key(ClaimItems.key(key)))
                .item();
        assertThat(item.get(ClaimItems.EXPIRES_AT).n())
                .isEqualTo(Long.toString(T0.plus(TTL).getEpochSecond()));
    }
}
