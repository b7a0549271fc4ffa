package dev.redrive.functions.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.functions.testing.CountingConsumer;
import dev.redrive.functions.testing.CountingHandler;
import dev.redrive.functions.testing.SqsPollerForTests;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The consumer framework end to end on local AWS: real SQS queues with a redrive policy, real DynamoDB claims, the
 * handler invoked the way Lambda's event source mapping invokes it.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class IdempotentSqsHandlerTest {

    private static final ExecutorService DELIVERIES = Executors.newFixedThreadPool(8);

    @Inject
    CountingHandler handler;

    @Inject
    DynamoDbClaimStore claims;

    LocalAws aws = LocalAws.shared();
    CountingConsumer consumer;

    @BeforeEach
    void freshResources() {
        aws.reset();
        LocalResources.createTable(aws.dynamoDb(), claims.table());
        consumer = handler.counting();
        consumer.reset();
    }

    @AfterAll
    static void stopDeliveries() {
        DELIVERIES.shutdownNow();
    }

    @Test
    void aDuplicateDeliveryWithANewMessageIdAppliesTheEffectOnce() {
        QueuePair q = LocalResources.createQueuePair(aws, "orders", 3, 30);
        String key = "order-" + UUID.randomUUID();
        aws.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("{\"key\":\"" + key + "\",\"n\":1}"));
        aws.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("{\"key\":\"" + key + "\",\"n\":1}"));
        SqsPollerForTests poller = new SqsPollerForTests(aws.sqs(), q.url(), q.arn());

        int delivered = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && inFlightOrWaiting(q.url()) > 0) {
            delivered += poller.pollOnce(handler, 1);
        }

        assertThat(inFlightOrWaiting(q.url())).as("both copies acknowledged").isZero();
        assertThat(delivered)
                .as("deliveries, counting a deferred copy's return")
                .isGreaterThanOrEqualTo(2);
        assertThat(consumer.effectsFor(key)).isEqualTo(1);
        assertThat(consumer.attempts()).isEqualTo(1);
        assertThat(claims.find(new IdempotencyKey("counting", key), Instant.now())
                        .orElseThrow()
                        .status())
                .isEqualTo(ClaimStatus.COMPLETED);
    }

    private int inFlightOrWaiting(String queueUrl) {
        Map<QueueAttributeName, String> a = aws.sqs()
                .getQueueAttributes(b -> b.queueUrl(queueUrl)
                        .attributeNames(
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .attributes();
        return a.values().stream().mapToInt(Integer::parseInt).sum();
    }

    @Test
    void eightConcurrentDeliveriesOfOneKeyApplyTheEffectOnceInEveryRound() throws Exception {
        QueuePair q = LocalResources.createQueuePair(aws, "storm", 3, 30);
        consumer.effectDuration(Duration.ofMillis(20));
        int threads = 8;
        int rounds = 100;
        for (int round = 0; round < rounds; round++) {
            String key = "storm-" + round + "-" + UUID.randomUUID();
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<SQSBatchResponse>> calls = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                SQSEvent event = syntheticEvent(q.arn(), "{\"key\":\"" + key + "\"}");
                calls.add(DELIVERIES.submit((Callable<SQSBatchResponse>) () -> {
                    start.await(10, TimeUnit.SECONDS);
                    return handler.handleRequest(event, null);
                }));
            }
            int acknowledged = 0;
            for (Future<SQSBatchResponse> call : calls) {
                acknowledged +=
                        call.get(60, TimeUnit.SECONDS).getBatchItemFailures().isEmpty() ? 1 : 0;
            }
            assertThat(consumer.effectsFor(key))
                    .as("effects in round %d", round)
                    .isEqualTo(1);
            assertThat(acknowledged)
                    .as("the applying delivery is acknowledged in round %d", round)
                    .isGreaterThanOrEqualTo(1);
        }
        assertThat(consumer.attempts()).isEqualTo(rounds);
    }

    @Test
    void aMessageThatAlwaysFailsReachesTheDlqAfterMaxReceiveCountWhileItsBatchMatesSucceed() {
        QueuePair q = LocalResources.createQueuePair(aws, "payments", 3, 30);
        String failing = "always-fail-" + UUID.randomUUID();
        List<String> good = List.of("ok-" + UUID.randomUUID(), "ok-" + UUID.randomUUID());
        for (String key : List.of(good.get(0), failing, good.get(1))) {
            aws.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("{\"key\":\"" + key + "\"}"));
        }
        SqsPollerForTests poller = new SqsPollerForTests(aws.sqs(), q.url(), q.arn());

        int first = poller.pollOnce(handler, 1);

        assertThat(first).as("all three arrive in one batch").isEqualTo(3);
        assertThat(good).allSatisfy(k -> assertThat(consumer.effectsFor(k)).isEqualTo(1));

        List<Message> dead = List.of();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (dead.isEmpty() && System.nanoTime() < deadline) {
            poller.pollOnce(handler, 1); // long poll: returns as soon as the retry becomes visible
            dead = aws.sqs()
                    .receiveMessage(b -> b.queueUrl(q.dlqUrl()).waitTimeSeconds(0))
                    .messages();
        }

        assertThat(dead).extracting(Message::body).containsExactly("{\"key\":\"" + failing + "\"}");
        assertThat(consumer.attempts())
                .as("2 good + 3 receives of the failing one")
                .isEqualTo(5);
        ClaimRecord claim = claims.find(new IdempotencyKey("counting", failing), Instant.now())
                .orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.FAILED);
        assertThat(claim.failureCount()).isEqualTo(3);
        assertThat(claim.lastFailure().classification().dependency()).isEqualTo("downstream");
        assertThat(good).allSatisfy(k -> assertThat(consumer.effectsFor(k)).isEqualTo(1));
    }

    @Test
    void malformedMessagesAreDeadLetteredWithTheirReasonAndNeverFailTheBatch() {
        QueuePair q = LocalResources.createQueuePair(aws, "inbox", 3, 30);
        String good = "ok-" + UUID.randomUUID();
        aws.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("this is not json"));
        aws.sqs()
                .sendMessage(b -> b.queueUrl(q.url())
                        .messageBody("{\"nokey\":true}")
                        .messageAttributes(Map.of(
                                "trace",
                                MessageAttributeValue.builder()
                                        .dataType("String")
                                        .stringValue("t-1")
                                        .build())));
        aws.sqs().sendMessage(b -> b.queueUrl(q.url()).messageBody("{\"key\":\"" + good + "\"}"));
        SqsPollerForTests poller = new SqsPollerForTests(aws.sqs(), q.url(), q.arn());
        List<Message> received = aws.sqs()
                .receiveMessage(b -> b.queueUrl(q.url())
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(1)
                        .messageAttributeNames("All")
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                .messages();
        assertThat(received).hasSize(3);

        SQSBatchResponse response = handler.handleRequest(poller.event(received), null);

        assertThat(response.getBatchItemFailures())
                .as("dead-lettered, so acknowledged")
                .isEmpty();
        assertThat(consumer.effectsFor(good)).isEqualTo(1);
        List<Message> dead = aws.sqs()
                .receiveMessage(b -> b.queueUrl(q.dlqUrl())
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(1)
                        .messageAttributeNames("All"))
                .messages();
        assertThat(dead).hasSize(2);
        Map<String, DeadLetterMetadata> byBody = new HashMap<>();
        for (Message m : dead) {
            byBody.put(
                    m.body(),
                    DeadLetterMetadata.parse(m.messageAttributes()
                                    .get(DeadLetterMetadata.ATTRIBUTE)
                                    .stringValue())
                            .orElseThrow());
        }
        assertThat(byBody.get("this is not json").errorType()).isEqualTo("NotJson");
        assertThat(byBody.get("this is not json").failureClass()).isEqualTo("SCHEMA");
        assertThat(byBody.get("this is not json").reason()).isEqualTo("the message body is not JSON");
        assertThat(byBody.get("{\"nokey\":true}").errorType()).isEqualTo("MissingKey");
        assertThat(byBody.get("{\"nokey\":true}").sourceQueue()).isEqualTo(q.arn());
        assertThat(dead)
                .filteredOn(m -> m.body().equals("{\"nokey\":true}"))
                .allSatisfy(m -> assertThat(m.messageAttributes().get("trace").stringValue())
                        .isEqualTo("t-1"));
    }

    @Test
    void theHandlerDoesNotReturnWhileAnEffectStillRuns() throws Exception {
        QueuePair q = LocalResources.createQueuePair(aws, "orders", 3, 30);
        String key = "hang-" + UUID.randomUUID();
        Future<SQSBatchResponse> response = DELIVERIES.submit(
                () -> handler.handleRequest(syntheticEvent(q.arn(), "{\"key\":\"" + key + "\"}"), remaining(1500)));

        // Past the batch's budget the record is reported timed out, but the sandbox must not freeze with its effect
        // still running: a thawed thread would go on after its lease.
        org.awaitility.Awaitility.await()
                .during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(5))
                .until(() -> !response.isDone());
        consumer.releaseHung();

        SQSBatchResponse answer = response.get(10, TimeUnit.SECONDS);
        assertThat(answer.getBatchItemFailures()).hasSize(1);
        assertThat(consumer.effectsFor(key))
                .as("the effect ended before the handler returned")
                .isEqualTo(1);
    }

    /** A Lambda context with {@code millis} left. */
    private static com.amazonaws.services.lambda.runtime.Context remaining(long millis) {
        long deadline = System.currentTimeMillis() + millis;
        return new com.amazonaws.services.lambda.runtime.Context() {
            public String getAwsRequestId() {
                return "req-1";
            }

            public String getLogGroupName() {
                return "";
            }

            public String getLogStreamName() {
                return "";
            }

            public String getFunctionName() {
                return "counting";
            }

            public String getFunctionVersion() {
                return "$LATEST";
            }

            public String getInvokedFunctionArn() {
                return "";
            }

            public com.amazonaws.services.lambda.runtime.CognitoIdentity getIdentity() {
                return null;
            }

            public com.amazonaws.services.lambda.runtime.ClientContext getClientContext() {
                return null;
            }

            public int getRemainingTimeInMillis() {
                return (int) (deadline - System.currentTimeMillis());
            }

            public int getMemoryLimitInMB() {
                return 512;
            }

            public com.amazonaws.services.lambda.runtime.LambdaLogger getLogger() {
                return null;
            }
        };
    }

    private static SQSEvent syntheticEvent(String queueArn, String body) {
        SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
        r.setMessageId(UUID.randomUUID().toString());
        r.setBody(body);
        r.setEventSourceArn(queueArn);
        r.setAttributes(Map.of("ApproximateReceiveCount", "1"));
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(r));
        return event;
    }
}
