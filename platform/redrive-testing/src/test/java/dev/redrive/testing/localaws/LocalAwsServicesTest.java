package dev.redrive.testing.localaws;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

@LocalAwsTest(resetBeforeEach = true)
class LocalAwsServicesTest {

    @Test
    void servesSqsDynamoDbAndS3OnLoopbackPortsChosenAtStart(LocalAws aws) {
        assertThat(List.of(aws.sqsEndpoint(), aws.dynamoDbEndpoint(), aws.s3Endpoint()))
                .allSatisfy(uri -> {
                    assertThat(uri.getHost()).isEqualTo("127.0.0.1");
                    assertThat(uri.getPort()).isNotIn(4566, 8081, 9324, 5000);
                });

        String queue = aws.sqs().createQueue(b -> b.queueName("hello")).queueUrl();
        aws.sqs().sendMessage(b -> b.queueUrl(queue).messageBody("hi"));
        assertThat(aws.sqs()
                        .receiveMessage(b -> b.queueUrl(queue).waitTimeSeconds(1))
                        .messages())
                .extracting(Message::body)
                .containsExactly("hi");

        createTable(aws.dynamoDb(), "claims");
        assertThat(aws.dynamoDb().listTables().tableNames()).containsExactly("claims");

        aws.s3().createBucket(b -> b.bucket("outbox"));
        aws.s3().putObject(b -> b.bucket("outbox").key("k"), RequestBody.fromString("v"));
        assertThat(aws.s3().getObjectAsBytes(b -> b.bucket("outbox").key("k")).asUtf8String())
                .isEqualTo("v");
    }

    @Test
    void resetEmptiesEveryServiceWithoutARestart(LocalAws aws) {
        long pidBefore = aws.motoPid().orElse(-1L);
        aws.sqs().createQueue(b -> b.queueName("q1"));
        createTable(aws.dynamoDb(), "t1");
        aws.s3().createBucket(b -> b.bucket("bucket-one"));

        aws.reset();

        assertThat(aws.sqs().listQueues().queueUrls()).isEmpty();
        assertThat(aws.dynamoDb().listTables().tableNames()).isEmpty();
        assertThat(aws.s3().listBuckets().buckets()).isEmpty();
        assertThat(aws.motoPid().orElse(-1L)).isEqualTo(pidBefore);
    }

    @Test
    void aMessageThatIsNeverDeletedMovesToTheDeadLetterQueueAfterMaxReceiveCount(LocalAws aws) {
        SqsClient sqs = aws.sqs();
        String dlq = sqs.createQueue(b -> b.queueName("orders-dlq")).queueUrl();
        String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlq).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes()
                .get(QueueAttributeName.QUEUE_ARN);
        String source = sqs.createQueue(b -> b.queueName("orders")
                        .attributes(Map.of(
                                QueueAttributeName.REDRIVE_POLICY,
                                "{\"maxReceiveCount\":\"3\",\"deadLetterTargetArn\":\"" + dlqArn + "\"}",
                                QueueAttributeName.VISIBILITY_TIMEOUT,
                                "0")))
                .queueUrl();
        sqs.sendMessage(b -> b.queueUrl(source).messageBody("poison"));

        // Visible again at once (visibility timeout 0) and received without a long poll: the receive that finds the
        // message over its maxReceiveCount moves it and answers empty at once, where a long poll would wait its
        // whole wait time on the emptied queue.
        int receives = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<Message> got = sqs.receiveMessage(b -> b.queueUrl(source)
                            .waitTimeSeconds(0)
                            .messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
                    .messages();
            receives += got.size();
            if (got.isEmpty() && receives >= 3) {
                break;
            }
        }

        assertThat(receives).isEqualTo(3);
        List<Message> dead =
                sqs.receiveMessage(b -> b.queueUrl(dlq).waitTimeSeconds(2)).messages();
        assertThat(dead).extracting(Message::body).containsExactly("poison");
    }

    @Test
    void concurrentConditionalWritesOnOneKeySucceedExactlyOnce(LocalAws aws) throws Exception {
        DynamoDbClient ddb = aws.dynamoDb();
        createTable(ddb, "atomicity");
        int threads = 8;
        int rounds = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        int violations = 0;
        try {
            for (int round = 0; round < rounds; round++) {
                String key = "k" + round;
                CyclicBarrier barrier = new CyclicBarrier(threads);
                List<Future<Boolean>> writes = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    String writer = "w" + t;
                    writes.add(pool.submit((Callable<Boolean>) () -> {
                        barrier.await(10, TimeUnit.SECONDS);
                        try {
                            ddb.putItem(b -> b.tableName("atomicity")
                                    .item(Map.of("pk", AttributeValue.fromS(key), "by", AttributeValue.fromS(writer)))
                                    .conditionExpression("attribute_not_exists(pk)"));
                            return true;
                        } catch (ConditionalCheckFailedException e) {
                            return false;
                        }
                    }));
                }
                int successes = 0;
                for (Future<Boolean> w : writes) {
                    successes += w.get(60, TimeUnit.SECONDS) ? 1 : 0;
                }
                if (successes != 1) {
                    violations++;
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(violations)
                .as("rounds where the conditional write did not succeed exactly once")
                .isZero();
    }

    static void createTable(DynamoDbClient ddb, String name) {
        ddb.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S)));
    }
}
