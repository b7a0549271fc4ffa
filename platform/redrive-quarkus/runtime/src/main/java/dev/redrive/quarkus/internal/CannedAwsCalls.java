package dev.redrive.quarkus.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.warmup.http.CannedResponseHttpClient;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Every AWS operation the functions call, made once each on SDK clients whose HTTP client answers every request from
 * memory ({@link CannedResponseHttpClient}, the SDK's own warm-up client): the request is built, its endpoint
 * resolved, signed and marshalled, and the answer parsed, as for a real call, but nothing is sent. The classes of the
 * SDK's request path are then loaded and compiled before the snapshot.
 *
 * <p>The functions' own clients are not used: a real call could write, and a connection opened before a snapshot is
 * not one after the restore. What is not primed here: the HTTP client's connection and TLS handshake.
 */
public final class CannedAwsCalls {

    /** A region for the clients; the calls go nowhere, so any valid one does. */
    private static final Region REGION = Region.US_EAST_1;

    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDPRIMING", "priming-secret"));

    private CannedAwsCalls() {}

    /** Makes each call; the first that throws ends the run. */
    public static void callEach() {
        try (DynamoDbClient dynamoDb = DynamoDbClient.builder()
                        .httpClient(canned("{}"))
                        .region(REGION)
                        .credentialsProvider(CREDENTIALS)
                        .build();
                S3Client s3 = S3Client.builder()
                        .httpClient(canned(""))
                        .region(REGION)
                        .credentialsProvider(CREDENTIALS)
                        .build();
                SqsClient sqs = SqsClient.builder()
                        .httpClient(canned("{}"))
                        .region(REGION)
                        .credentialsProvider(CREDENTIALS)
                        .build()) {
            dynamoDb(dynamoDb);
            s3.putObject(
                    b -> b.bucket("priming")
                            .key("priming.json")
                            .contentType("application/json")
                            .ifNoneMatch("*"),
                    RequestBody.fromString("{}"));
            sqs.sendMessageBatch(b -> b.queueUrl(queue()).entries(e -> e.id("0").messageBody("{}")));
            sqs.changeMessageVisibilityBatch(b -> b.queueUrl(queue())
                    .entries(e -> e.id("0").receiptHandle("priming").visibilityTimeout(1)));
            sqs.deleteMessageBatch(
                    b -> b.queueUrl(queue()).entries(e -> e.id("0").receiptHandle("priming")));
            sqs.receiveMessage(b -> b.queueUrl(queue()).maxNumberOfMessages(10).messageAttributeNames("All"));
        }
    }

    private static void dynamoDb(DynamoDbClient dynamoDb) {
        Map<String, AttributeValue> key =
                Map.of("pk", AttributeValue.fromS("priming"), "sk", AttributeValue.fromS("priming"));
        Map<String, AttributeValue> values = Map.of(":v", AttributeValue.fromN("1"));
        dynamoDb.putItem(b -> b.tableName("priming")
                .item(key)
                .conditionExpression("attribute_not_exists(pk) OR #v < :v")
                .expressionAttributeNames(Map.of("#v", "version"))
                .expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
        dynamoDb.updateItem(b -> b.tableName("priming")
                .key(key)
                .updateExpression("SET #v = :v")
                .conditionExpression("#v = :v")
                .expressionAttributeNames(Map.of("#v", "version"))
                .expressionAttributeValues(values));
        dynamoDb.getItem(b -> b.tableName("priming").key(key).consistentRead(true));
        dynamoDb.transactWriteItems(b -> b.transactItems(
                t -> t.put(p -> p.tableName("priming").item(key).conditionExpression("attribute_not_exists(pk)")),
                t -> t.update(u -> u.tableName("priming")
                        .key(key)
                        .updateExpression("ADD #v :v")
                        .expressionAttributeNames(Map.of("#v", "version"))
                        .expressionAttributeValues(values))));
        dynamoDb.query(b -> b.tableName("priming")
                .keyConditionExpression("pk = :v")
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("priming"))));
        dynamoDb.batchGetItem(b -> b.requestItems(Map.of(
                "priming",
                software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder()
                        .keys(key)
                        .build())));
    }

    private static String queue() {
        return "https://sqs." + REGION.id() + ".amazonaws.com/000000000000/priming";
    }

    private static SdkHttpClient canned(String body) {
        return CannedResponseHttpClient.builder()
                .responseBody(body.getBytes(StandardCharsets.UTF_8))
                .statusCode(200)
                .build();
    }
}
