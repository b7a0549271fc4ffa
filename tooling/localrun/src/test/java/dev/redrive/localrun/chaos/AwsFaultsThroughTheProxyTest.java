package dev.redrive.localrun.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.localrun.eventsource.AwsTrafficProxy;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Verdict;
import dev.redrive.testing.localaws.LocalAws;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * The faults the proxy answers with are what AWS answers, as the SDK reads them: the same exception types, status
 * codes, error codes and cancellation reasons the functions' classifiers see from the real services. Retries are off
 * so the first answer is what the client reports.
 */
class AwsFaultsThroughTheProxyTest {

    private final AtomicReference<Verdict> answer = new AtomicReference<>(Verdict.pass());
    private AwsTrafficProxy dynamoDb;
    private AwsTrafficProxy s3;
    private AwsTrafficProxy sqs;

    @BeforeEach
    void proxies() throws Exception {
        LocalAws aws = LocalAws.shared();
        dynamoDb = proxy("dynamodb", aws.dynamoDbEndpoint());
        s3 = proxy("s3", aws.s3Endpoint());
        sqs = proxy("sqs", aws.sqsEndpoint());
    }

    private AwsTrafficProxy proxy(String service, URI target) throws Exception {
        AwsTrafficProxy p = new AwsTrafficProxy(service, target);
        p.hook(new AwsTrafficProxy.Hook() {
            @Override
            public Verdict before(AwsTrafficProxy.Call call) {
                return answer.get();
            }
        });
        return p;
    }

    @AfterEach
    void close() {
        dynamoDb.close();
        s3.close();
        sqs.close();
    }

    @Test
    void dynamoDbThrottlingIsProvisionedThroughputExceeded() {
        answer.set(AwsFaults.dynamoDbThrottle());
        assertThatThrownBy(() -> dynamoDb().getItem(b -> b.tableName("t").key(key())))
                .isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.isThrottlingException()).isTrue();
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ProvisionedThroughputExceededException");
                });
    }

    @Test
    void dynamoDbInternalErrorIsA500() {
        answer.set(AwsFaults.dynamoDbInternalError());
        assertThatThrownBy(() -> dynamoDb().putItem(b -> b.tableName("t").item(key())))
                .isInstanceOfSatisfying(DynamoDbException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(500);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InternalServerError");
                });
    }

    @Test
    void aTransactionConflictCancelsTheTransactionWithOneReasonPerItem() {
        answer.set(AwsFaults.dynamoDbTransactionConflict(true, 2, 1));
        assertThatThrownBy(() -> dynamoDb()
                        .transactWriteItems(b -> b.transactItems(
                                t -> t.put(p -> p.tableName("t").item(key())),
                                t -> t.put(p -> p.tableName("u").item(key())))))
                .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
                    assertThat(e.cancellationReasons()).hasSize(2);
                    assertThat(e.cancellationReasons().get(0).code()).isEqualTo("None");
                    assertThat(e.cancellationReasons().get(1).code()).isEqualTo("TransactionConflict");
                });
    }

    @Test
    void aConflictOnASingleItemWriteIsTransactionConflictException() {
        answer.set(AwsFaults.dynamoDbTransactionConflict(false, 1, 0));
        assertThatThrownBy(() -> dynamoDb().updateItem(b -> b.tableName("t").key(key())))
                .isInstanceOf(TransactionConflictException.class);
    }

    @Test
    void s3SlowDownIsA503() {
        answer.set(AwsFaults.s3SlowDown());
        S3Client client = S3Client.builder()
                .endpointOverride(s3.endpoint())
                .forcePathStyle(true)
                .region(LocalAws.shared().region())
                .credentialsProvider(LocalAws.shared().credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD).retryStrategy(r -> r.maxAttempts(1)))
                .build();
        assertThatThrownBy(() -> client.putObject(b -> b.bucket("b").key("k"), RequestBody.fromString("x")))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(503);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SlowDown");
                    assertThat(e.isThrottlingException()).isTrue();
                });
    }

    @Test
    void sqsInternalErrorIsA500() {
        answer.set(AwsFaults.sqsInternalError());
        SqsClient client = SqsClient.builder()
                .endpointOverride(sqs.endpoint())
                .region(LocalAws.shared().region())
                .credentialsProvider(LocalAws.shared().credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
                .build();
        assertThatThrownBy(() -> client.sendMessage(
                        b -> b.queueUrl(sqs.endpoint() + "/000000000000/q").messageBody("x")))
                .isInstanceOfSatisfying(SqsException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(500);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InternalError");
                });
    }

    @Test
    void aDroppedConnectionIsAClientSideIoErrorAndTheCallReachedAwsWhenDroppedAfter() {
        LocalAws aws = LocalAws.shared();
        aws.dynamoDb()
                .createTable(b -> b.tableName("dropped")
                        .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                        .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                        .billingMode("PAY_PER_REQUEST"));
        try {
            dynamoDb.hook(new AwsTrafficProxy.Hook() {
                @Override
                public Verdict after(AwsTrafficProxy.Call call, AwsTrafficProxy.Reply reply) {
                    return Verdict.drop();
                }
            });
            assertThatThrownBy(() -> dynamoDb()
                            .putItem(b -> b.tableName("dropped").item(Map.of("pk", AttributeValue.fromS("k1")))))
                    .isInstanceOf(SdkClientException.class);
            assertThat(aws.dynamoDb()
                            .getItem(b -> b.tableName("dropped").key(Map.of("pk", AttributeValue.fromS("k1"))))
                            .hasItem())
                    .as("the write reached AWS; only its answer was lost")
                    .isTrue();
        } finally {
            aws.dynamoDb().deleteTable(b -> b.tableName("dropped"));
        }
    }

    @Test
    void latencyDelaysTheCall() {
        answer.set(Verdict.delay(700));
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> dynamoDb().describeTable(b -> b.tableName("no-such-table")))
                .isInstanceOf(DynamoDbException.class);
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(700);
    }

    private DynamoDbClient dynamoDb() {
        return DynamoDbClient.builder()
                .endpointOverride(dynamoDb.endpoint())
                .region(LocalAws.shared().region())
                .credentialsProvider(LocalAws.shared().credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
                .build();
    }

    private static Map<String, AttributeValue> key() {
        return Map.of("pk", AttributeValue.fromS("k"), "b", AttributeValue.fromB(SdkBytes.fromUtf8String("x")));
    }
}
