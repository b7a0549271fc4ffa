package dev.redrive.functions.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.bench.PowertoolsStyleConsumer.BatchResult;
import dev.redrive.functions.bench.PowertoolsStyleConsumer.Outcome;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The baseline's parallel batch mode ({@code processBatchInParallel}) does what Powertools' does: the records of a
 * batch really overlap (as many as its concurrency rule allows), duplicates and failures end as one after another,
 * the one difference being two records with one key in the same batch, and a FIFO batch is refused.
 */
@LocalAwsTest
class PowertoolsStyleConsumerParallelTest extends PowertoolsStyleFixture {

    @Test
    void inParallelWithTheDocumentedExecutorEveryRecordOfTheBatchRunsAtOnce() {
        List<IncomingMessage> batch = fresh("new-", 10);
        Overlap overlap = new Overlap(10);

        BatchResult result = consumer.processBatchInParallel(batch, overlap::call, () -> REMAINING, executor);

        assertThat(overlap.max()).isEqualTo(10); // ten downstream calls in flight at once
        assertThat(result.outcomes()).isEqualTo(Map.of(Outcome.APPLIED, 10));
        assertThat(clients.dynamoDbCalls().snapshot()).isEqualTo(Map.of("PutItem", 10, "UpdateItem", 10));
    }

    @Test
    void inParallelOnTheCommonPoolAsManyRecordsRunAtOnceAsThePoolHasThreadsPlusTheCaller() {
        List<IncomingMessage> batch = fresh("new-", 10);
        int concurrency = Math.min(batch.size(), PowertoolsStyleBatch.commonPoolConcurrency());
        Overlap overlap = new Overlap(concurrency);

        BatchResult result = consumer.processBatchInParallel(batch, overlap::call, () -> REMAINING);

        assertThat(concurrency).isGreaterThanOrEqualTo(2);
        assertThat(overlap.max()).isEqualTo(concurrency);
        assertThat(result.outcomes()).isEqualTo(Map.of(Outcome.APPLIED, 10));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void duplicatesAndFailuresEndTheSameWhicheverWayTheBatchRuns(Mode mode) {
        List<IncomingMessage> duplicates = fresh("dup-", 3);
        run(duplicates); // completed earlier
        handled.clear();
        List<IncomingMessage> batch = new ArrayList<>(fresh("new-", 4));
        List<IncomingMessage> failing = fresh("fail-", 3);
        batch.addAll(failing);
        duplicates.forEach(m -> batch.add(message(selectedKey(m), null))); // redelivered under new ids

        BatchResult result = run(batch, mode);

        assertThat(result.outcomes()).isEqualTo(Map.of(Outcome.APPLIED, 4, Outcome.DUPLICATE, 3, Outcome.FAILED, 3));
        assertThat(result.failedMessageIds())
                .containsExactlyElementsOf(
                        failing.stream().map(IncomingMessage::messageId).toList());
        assertThat(handled).hasSize(7);
        assertThat(clients.dynamoDbCalls().snapshot())
                .isEqualTo(Map.of("PutItem", 7, "PutItem!", 3, "UpdateItem", 4, "DeleteItem", 3));
        failing.forEach(m -> assertThat(stored(m)).isEmpty());
    }

    @Test
    void twoRecordsWithOneKeyInOneBatchAreADuplicateOneAfterAnotherButInParallelTheSecondFailsInProgress() {
        String key = "k-" + UUID.randomUUID();
        assertThat(run(List.of(message(key, null), message(key, null))).outcomes())
                .isEqualTo(Map.of(Outcome.APPLIED, 1, Outcome.DUPLICATE, 1));

        String other = "k-" + UUID.randomUUID();
        List<IncomingMessage> batch = List.of(message(other, null), message(other, null));
        clients.reset();
        BatchResult parallel = consumer.processBatchInParallel(
                batch,
                k -> { // the record that claimed the key holds it until the other's put has been refused
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> clients.dynamoDbCalls().snapshot().getOrDefault("PutItem!", 0) == 1);
                    return "done";
                },
                () -> REMAINING,
                executor);

        assertThat(parallel.outcomes()).isEqualTo(Map.of(Outcome.APPLIED, 1, Outcome.IN_PROGRESS, 1));
        assertThat(parallel.failedMessageIds()).hasSize(1); // SQS delivers it again; then it is a duplicate
    }

    @Test
    void theParallelModeRefusesAFifoBatchBeforeProcessingAnyRecord() {
        String id = UUID.randomUUID().toString();
        List<IncomingMessage> fifo = List.of(message("a-" + id, "g"), message("b-" + id, "g"));
        clients.reset();

        assertThatThrownBy(() -> run(fifo, Mode.PARALLEL_COMMON_POOL))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("FIFO queues are not supported in parallel mode");
        assertThatThrownBy(() -> run(fifo, Mode.PARALLEL_EXECUTOR)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(handled).isEmpty();
        assertThat(clients.dynamoDbCalls().total()).isZero();
    }

    /**
     * A handler that counts the calls in flight and holds each until {@code target} calls have arrived (or 10 s have
     * passed), so that as many records as the mode runs at once are seen in flight together.
     */
    private static final class Overlap {
        private final CountDownLatch arrived;
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicInteger max = new AtomicInteger();

        Overlap(int target) {
            arrived = new CountDownLatch(target);
        }

        String call(String key) throws InterruptedException {
            max.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                arrived.countDown();
                arrived.await(10, TimeUnit.SECONDS);
                return "done";
            } finally {
                inFlight.decrementAndGet();
            }
        }

        int max() {
            return max.get();
        }
    }
}
