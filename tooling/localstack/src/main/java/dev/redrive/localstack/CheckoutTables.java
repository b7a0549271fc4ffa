package dev.redrive.localstack;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** The checkout example's tables, created by code on local AWS for tests that need one of their own. */
public final class CheckoutTables {

    private CheckoutTables() {}

    /**
     * The checkout's orders table: {@code pk} + {@code sk}, the sparse GSI {@code byUnpublished} ({@code unpublished},
     * {@code createdAt}) of outbox items not yet published, the sparse GSI {@code byOpenAttempt} ({@code openAttempt},
     * {@code leaseUntil}) of unfinished checkout attempts, its stream carrying new images (the outbox relay reads
     * them).
     */
    public static void createOrdersTable(DynamoDbClient ddb, String name) {
        ddb.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("unpublished").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("createdAt").attributeType(ScalarAttributeType.N),
                        a -> a.attributeName("openAttempt").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("leaseUntil").attributeType(ScalarAttributeType.N))
                .globalSecondaryIndexes(
                        g -> g.indexName("byUnpublished")
                                .keySchema(
                                        k -> k.attributeName("unpublished").keyType(KeyType.HASH),
                                        k -> k.attributeName("createdAt").keyType(KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.ALL)),
                        g -> g.indexName("byOpenAttempt")
                                .keySchema(
                                        k -> k.attributeName("openAttempt").keyType(KeyType.HASH),
                                        k -> k.attributeName("leaseUntil").keyType(KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.ALL)))
                .streamSpecification(s -> s.streamEnabled(true)
                        .streamViewType(software.amazon.awssdk.services.dynamodb.model.StreamViewType.NEW_IMAGE)));
    }
}
