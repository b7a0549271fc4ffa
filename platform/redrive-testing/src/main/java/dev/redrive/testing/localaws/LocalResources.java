package dev.redrive.testing.localaws;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Creates resources on local AWS by code, for tests that need a table, a bucket or a queue pair of their own (the
 * system's real resources come from the synthesized template).
 */
public final class LocalResources {

    private LocalResources() {}

    /** A table keyed by a string {@code pk}, with {@code expiresAt} as its TTL attribute. */
    public static void createTable(DynamoDbClient ddb, String name) {
        ddb.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S)));
        ddb.updateTimeToLive(b -> b.tableName(name)
                .timeToLiveSpecification(t -> t.attributeName("expiresAt").enabled(true)));
    }

    /** A table keyed by {@code pk} + {@code sk} (the control table's shape). */
    public static void createKeyValueTable(DynamoDbClient ddb, String name) {
        ddb.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S)));
    }

    /** The quarantine ledger's shape: {@code pk} + {@code sk}, GSIs {@code byState} and {@code byQueue}. */
    public static void createQuarantineTable(DynamoDbClient ddb, String name) {
        Projection all = Projection.builder().projectionType(ProjectionType.ALL).build();
        ddb.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("state").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sourceQueue").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("arrivedAt").attributeType(ScalarAttributeType.N))
                .globalSecondaryIndexes(
                        g -> g.indexName("byState")
                                .projection(all)
                                .keySchema(
                                        k -> k.attributeName("state").keyType(KeyType.HASH),
                                        k -> k.attributeName("arrivedAt").keyType(KeyType.RANGE)),
                        g -> g.indexName("byQueue")
                                .projection(all)
                                .keySchema(
                                        k -> k.attributeName("sourceQueue").keyType(KeyType.HASH),
                                        k -> k.attributeName("arrivedAt").keyType(KeyType.RANGE))));
    }

    /** A versioned bucket: each write is one version, so tests can count how often an object was written. */
    public static void createVersionedBucket(LocalAws aws, String name) {
        aws.s3().createBucket(b -> b.bucket(name));
        aws.s3()
                .putBucketVersioning(
                        b -> b.bucket(name).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
    }

    /** A source queue with its dead-letter queue and redrive policy. */
    public static QueuePair createQueuePair(LocalAws aws, String name, int maxReceiveCount, int visibilitySeconds) {
        String dlqUrl = aws.sqs().createQueue(b -> b.queueName(name + "-dlq")).queueUrl();
        String dlqArn = arn(aws, dlqUrl);
        String url = aws.sqs()
                .createQueue(b -> b.queueName(name)
                        .attributes(Map.of(
                                QueueAttributeName.REDRIVE_POLICY,
                                "{\"maxReceiveCount\":\"" + maxReceiveCount + "\",\"deadLetterTargetArn\":\"" + dlqArn
                                        + "\"}",
                                QueueAttributeName.VISIBILITY_TIMEOUT,
                                Integer.toString(visibilitySeconds))))
                .queueUrl();
        return new QueuePair(url, arn(aws, url), dlqUrl, dlqArn);
    }

    public static String arn(LocalAws aws, String queueUrl) {
        return aws.sqs()
                .getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes()
                .get(QueueAttributeName.QUEUE_ARN);
    }

    /** A source queue and its dead-letter queue. */
    public record QueuePair(String url, String arn, String dlqUrl, String dlqArn) {}
}
