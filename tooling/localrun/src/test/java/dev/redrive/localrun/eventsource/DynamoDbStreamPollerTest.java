package dev.redrive.localrun.eventsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.localstack.CheckoutTables;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The stream mapping on local AWS's DynamoDB stream, with a function in this JVM that records what it is given: the
 * relay's filter, batches in stream order, a partial answer retried from its first failure, a failed batch bisected,
 * and a batch out of retries described on the on-failure queue while the shard moves on.
 */
class DynamoDbStreamPollerTest {

    final LocalAws aws = LocalAws.shared();
    final ObjectMapper json = new ObjectMapper();
    final List<List<String>> invocations = new CopyOnWriteArrayList<>();
    String table;
    String streamArn;
    String onFailure;
    DynamoDbStreamsClient streams;
    DynamoDbStreamPoller poller;

    @BeforeEach
    void table() {
        table = "orders-" + UUID.randomUUID();
        CheckoutTables.createOrdersTable(aws.dynamoDb(), table);
        streamArn =
                aws.dynamoDb().describeTable(b -> b.tableName(table)).table().latestStreamArn();
        onFailure = aws.sqs()
                .createQueue(b -> b.queueName("relay-failures-" + UUID.randomUUID()))
                .queueUrl();
        streams = aws.dynamoDbStreams();
    }

    @AfterEach
    void stop() {
        if (poller != null) {
            poller.close();
        }
        streams.close();
    }

    void put(String pk, String sk) {
        aws.dynamoDb()
                .putItem(b -> b.tableName(table)
                        .item(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk))));
    }

    /** Starts the mapping; {@code answer} gets the batch's sort keys and returns the function's answer. */
    void start(int batchSize, int retries, Function<List<String>, InvocationResult> answer) {
        poller = new DynamoDbStreamPoller(
                streams,
                aws.sqs(),
                payload -> {
                    List<String> sks = new ArrayList<>();
                    JsonNode event = read(payload);
                    event.path("Records")
                            .forEach(r -> sks.add(r.path("dynamodb")
                                    .path("Keys")
                                    .path("sk")
                                    .path("S")
                                    .asText()));
                    invocations.add(sks);
                    return answer.apply(sks);
                },
                "relay",
                new DynamoDbStreamPoller.Settings(
                        streamArn,
                        "arn:aws:lambda:us-east-1:000000000000:function:relay",
                        batchSize,
                        EventFilter.of(List.of(EventFilterTest.RELAY)),
                        true,
                        retries,
                        Optional.of(onFailure),
                        true,
                        true),
                aws.region().id());
        poller.start();
    }

    JsonNode read(String payload) {
        try {
            return json.readTree(payload);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static InvocationResult ok() {
        return new InvocationResult.Response("{\"batchItemFailures\":[]}", Duration.ZERO);
    }

    @Test
    void outboxInsertsOnlyInStreamOrderInBatchesOfTheMappingsSize() throws Exception {
        for (int i = 1; i <= 7; i++) {
            put("order#" + i, "order");
            put("order#" + i, "outbox#00000" + i);
        }
        aws.dynamoDb()
                .updateItem(b -> b.tableName(table)
                        .key(Map.of("pk", AttributeValue.fromS("order#1"), "sk", AttributeValue.fromS("outbox#000001")))
                        .updateExpression("SET published = :t")
                        .expressionAttributeValues(Map.of(":t", AttributeValue.fromS("now"))));

        start(3, 5, sks -> ok());

        await().atMost(Duration.ofSeconds(20)).until(() -> poller.delivered() == 7);
        assertThat(invocations).allSatisfy(batch -> assertThat(batch).hasSizeLessThanOrEqualTo(3));
        assertThat(invocations.stream().flatMap(List::stream).toList())
                .as("every outbox insert once, in order; no order item, no mark")
                .containsExactly(
                        "outbox#000001",
                        "outbox#000002",
                        "outbox#000003",
                        "outbox#000004",
                        "outbox#000005",
                        "outbox#000006",
                        "outbox#000007");
        assertThat(poller.figures())
                .containsEntry("streamRecordsRead", 15L)
                .containsEntry("streamRecordsFilteredOut", 8L)
                .containsEntry("streamInvocationsFailed", 0L);
    }

    @Test
    void aPartialAnswerIsRetriedFromItsFirstFailureAndWhatWentBeforeIsNotSentAgain() throws Exception {
        for (int i = 1; i <= 4; i++) {
            put("order#" + i, "outbox#" + i);
        }
        List<software.amazon.awssdk.services.dynamodb.model.Record> records =
                dev.redrive.localstack.StreamEvents.readAll(aws, table);
        String third = records.get(2).dynamodb().sequenceNumber();
        boolean[] failedOnce = {false};
        start(4, 5, sks -> {
            if (!failedOnce[0] && sks.contains("outbox#3")) {
                failedOnce[0] = true;
                return new InvocationResult.Response(
                        "{\"batchItemFailures\":[{\"itemIdentifier\":\"" + third + "\"}]}", Duration.ZERO);
            }
            return ok();
        });

        await().atMost(Duration.ofSeconds(20)).until(() -> poller.delivered() == 4);
        assertThat(invocations)
                .containsExactly(
                        List.of("outbox#1", "outbox#2", "outbox#3", "outbox#4"), List.of("outbox#3", "outbox#4"));
    }

    @Test
    void aFailedBatchIsBisectedAndOnlyThePoisonRecordGoesToTheOnFailureQueueAfterItsRetries() throws Exception {
        for (int i = 1; i <= 4; i++) {
            put("order#" + i, "outbox#" + i);
        }
        put("order#5", "outbox#5");

        start(
                4,
                2,
                sks -> sks.contains("outbox#2")
                        ? new InvocationResult.FunctionError("Unhandled", "{\"errorType\":\"Boom\"}", Duration.ZERO)
                        : ok());

        await().atMost(Duration.ofSeconds(30)).until(() -> poller.delivered() == 4);
        List<Message> failures = await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> aws.sqs()
                                .receiveMessage(b -> b.queueUrl(onFailure).maxNumberOfMessages(10))
                                .messages(),
                        m -> !m.isEmpty());
        assertThat(failures).singleElement().satisfies(m -> {
            JsonNode body = json.readTree(m.body());
            assertThat(body.path("requestContext").path("condition").asText()).isEqualTo("RetryAttemptsExhausted");
            assertThat(body.path("requestContext")
                            .path("approximateInvokeCount")
                            .asInt())
                    .isEqualTo(3);
            assertThat(body.path("DDBStreamBatchInfo").path("batchSize").asInt())
                    .isEqualTo(1);
            assertThat(body.path("DDBStreamBatchInfo").path("streamArn").asText())
                    .isEqualTo(streamArn);
            assertThat(body.path("DDBStreamBatchInfo")
                            .path("startSequenceNumber")
                            .asText())
                    .isEqualTo(body.path("DDBStreamBatchInfo")
                            .path("endSequenceNumber")
                            .asText());
        });
        assertThat(invocations.get(0)).containsExactly("outbox#1", "outbox#2", "outbox#3", "outbox#4");
        assertThat(invocations.get(1)).as("bisected").containsExactly("outbox#1", "outbox#2");
        assertThat(invocations.stream().flatMap(List::stream).filter("outbox#2"::equals))
                .as("the poison record: its first try and two retries")
                .hasSize(3);
        assertThat(invocations.get(invocations.size() - 1))
                .as("the shard moved on past it")
                .containsExactly("outbox#5");
        assertThat(poller.figures()).containsEntry("streamRecordsSentToOnFailure", 1L);
    }
}
