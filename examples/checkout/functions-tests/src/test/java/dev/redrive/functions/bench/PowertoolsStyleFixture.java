package dev.redrive.functions.bench;

import static dev.redrive.functions.bench.PowertoolsStyleConsumer.EXPIRATION;
import static dev.redrive.functions.bench.PowertoolsStyleConsumer.ID;
import static dev.redrive.functions.bench.PowertoolsStyleConsumer.IN_PROGRESS_EXPIRATION;
import static dev.redrive.functions.bench.PowertoolsStyleConsumer.STATUS;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.bench.PowertoolsStyleConsumer.BatchResult;
import dev.redrive.functions.testing.AdjustableClock;
import dev.redrive.functions.testing.CountedClients;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What the tests of {@link PowertoolsStyleConsumer} share: a fresh table of Powertools' layout on local DynamoDB per
 * test, counted clients, an adjustable clock, a handler that records the keys it handled and fails those starting with
 * {@code fail-}, and the three ways to run a batch.
 */
abstract class PowertoolsStyleFixture {

    static final Duration REMAINING = Duration.ofSeconds(60);

    LocalAws aws;
    CountedClients clients;
    String table;
    AdjustableClock clock = new AdjustableClock();
    PowertoolsStyleConsumer consumer;
    final List<String> handled = Collections.synchronizedList(new ArrayList<>());
    final ExecutorService executor = PowertoolsStyleBatch.documentedIoExecutor();

    /** How a batch is run: processBatch, processBatchInParallel on the common pool, or with the executor. */
    enum Mode {
        SEQUENTIAL,
        PARALLEL_COMMON_POOL,
        PARALLEL_EXECUTOR
    }

    @BeforeEach
    void table(LocalAws aws) {
        this.aws = aws;
        clients = CountedClients.on(aws);
        table = "pt-style-" + UUID.randomUUID().toString().substring(0, 8);
        PowertoolsStyleConsumer.createTable(aws.dynamoDb(), table);
        consumer = new PowertoolsStyleConsumer(clients.dynamoDb(), table, "fn.handle", Duration.ofHours(1), clock);
    }

    @AfterEach
    void shutDown() {
        executor.shutdownNow();
    }

    BatchResult run(List<IncomingMessage> batch) {
        return run(batch, Mode.SEQUENTIAL);
    }

    BatchResult run(List<IncomingMessage> batch, Mode mode) {
        clients.reset();
        PowertoolsStyleConsumer.RecordHandler handler = key -> {
            handled.add(key);
            if (key.startsWith("fail-")) {
                throw new IllegalStateException("the downstream failed");
            }
            return "done";
        };
        return switch (mode) {
            case SEQUENTIAL -> consumer.processBatch(batch, handler, () -> REMAINING);
            case PARALLEL_COMMON_POOL -> consumer.processBatchInParallel(batch, handler, () -> REMAINING);
            case PARALLEL_EXECUTOR -> consumer.processBatchInParallel(batch, handler, () -> REMAINING, executor);
        };
    }

    static List<IncomingMessage> fresh(String prefix, int n) {
        List<IncomingMessage> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(message(prefix + UUID.randomUUID(), null));
        }
        return batch;
    }

    static String selectedKey(IncomingMessage m) {
        return m.body().substring("{\"key\":\"".length(), m.body().length() - 2);
    }

    void seed(IncomingMessage m, String status, Instant expiration, Instant inProgressExpiration) {
        aws.dynamoDb()
                .putItem(b -> b.tableName(table)
                        .item(Map.of(
                                ID,
                                        AttributeValue.builder()
                                                .s(consumer.keyOf(m))
                                                .build(),
                                STATUS, AttributeValue.builder().s(status).build(),
                                EXPIRATION,
                                        AttributeValue.builder()
                                                .n(Long.toString(expiration.getEpochSecond()))
                                                .build(),
                                IN_PROGRESS_EXPIRATION,
                                        AttributeValue.builder()
                                                .n(Long.toString(inProgressExpiration.toEpochMilli()))
                                                .build())));
    }

    Map<String, AttributeValue> stored(IncomingMessage m) {
        return aws.dynamoDb()
                .getItem(b -> b.tableName(table)
                        .key(Map.of(
                                ID,
                                AttributeValue.builder().s(consumer.keyOf(m)).build()))
                        .consistentRead(true))
                .item();
    }

    static IncomingMessage message(String key, String group) {
        String id = UUID.randomUUID().toString();
        return new IncomingMessage(id, "rh-" + id, "{\"key\":\"" + key + "\"}", Map.of(), 1, "queue", group);
    }
}
