package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.core.failure.TransientFailure;
import dev.redrive.testing.claim.InMemoryClaimStore;
import dev.redrive.testing.consumer.InMemoryQueueGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The handler's rules on the in-memory fakes: partial batch response, a record without an id, a duplicate, the
 * deadline margin, and never returning while an effect runs.
 */
class SqsConsumerHandlerTest {

    static final String QUEUE = "arn:aws:sqs:us-east-1:000000000000:orders";

    final InMemoryClaimStore claims = new InMemoryClaimStore();
    final InMemoryQueueGateway queues = new InMemoryQueueGateway();
    final Map<String, Integer> effects = new ConcurrentHashMap<>();
    final List<String> emf = new ArrayList<>();
    /** Holds a hung effect as I/O would: an interrupt goes unnoticed. */
    final Semaphore hung = new Semaphore(0);

    final ExecutorService calls = Executors.newSingleThreadExecutor();

    /** Applies once per key; a key starting with "fail" fails TRANSIENT, one starting with "hang" ignores its deadline. */
    final Handler handler = new Handler(new RedriveConsumer(
            new dev.redrive.lambda.internal.ReaderConsumers.External<>(
                    "orders", JsonMessages.keyAt("/key"), (event, context) -> {
                        String key = event.get("key").asText();
                        if (key.startsWith("fail")) {
                            throw new TransientFailure("downstream is down", "downstream");
                        }
                        if (key.startsWith("hang")) {
                            hung.acquireUninterruptibly();
                        }
                        effects.merge(key, 1, Integer::sum);
                        return null;
                    }),
            new BatchProcessor(
                    new MessageProcessor(
                            claims,
                            LeasePolicy.DEFAULT,
                            new FullJitterBackoff(Duration.ofSeconds(1), 2, Duration.ofSeconds(4)),
                            new Mulberry32(7),
                            Clock.systemUTC(),
                            ProcessingListener.NONE),
                    queues,
                    4),
            Duration.ofSeconds(3),
            new ConsumerMetrics(new EmfOutput(emf::add))));

    static final class Handler extends SqsConsumerHandler {
        Handler(RedriveConsumer consumer) {
            super(consumer);
        }
    }

    @AfterEach
    void release() {
        hung.release(100);
        calls.shutdownNow();
    }

    @Test
    void onlyTheFailedRecordsAreReportedSoTheRestIsAcknowledged() {
        SQSBatchResponse response =
                handler.handleRequest(event(record("m1", "ok-1"), record("m2", "fail-1"), record("m3", "ok-2")), null);

        assertThat(response.getBatchItemFailures())
                .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("m2");
        assertThat(effects).containsOnlyKeys("ok-1", "ok-2");
        assertThat(queues.visibilityCalls()).hasSize(1);
        assertThat(emf).as("the invocation's metrics were flushed").isNotEmpty();
    }

    @Test
    void aRecordWithoutAMessageIdFailsTheWholeBatchButTheOthersAreStillProcessed() {
        SQSEvent.SQSMessage anonymous = record(null, "ok-3");

        SQSBatchResponse response = handler.handleRequest(event(record("m1", "ok-1"), anonymous), null);

        assertThat(response.getBatchItemFailures())
                .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .as("an empty identifier: Lambda deletes none of the batch")
                .containsExactly("");
        assertThat(effects).containsOnlyKeys("ok-1");
        assertThat(handler.handleRequest(event(anonymous), null).getBatchItemFailures())
                .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("");
    }

    @Test
    void anEmptyEventIsAnEmptyResponse() {
        assertThat(handler.handleRequest(new SQSEvent(), null).getBatchItemFailures())
                .isEmpty();
        assertThat(handler.handleRequest(null, null).getBatchItemFailures()).isEmpty();
    }

    @Test
    void aDuplicateWithANewMessageIdIsAcknowledgedWithoutApplyingAgain() {
        handler.handleRequest(event(record("m1", "ok-1")), null);

        SQSBatchResponse again = handler.handleRequest(event(record("m1-redriven", "ok-1")), null);

        assertThat(again.getBatchItemFailures()).isEmpty();
        assertThat(effects).containsEntry("ok-1", 1);
    }

    @Test
    void theMarginKeptBackIsTheConfiguredOneButNeverMoreThanAQuarterOfWhatIsLeft() {
        assertThat(SqsConsumerHandler.margin(Duration.ofSeconds(60), Duration.ofSeconds(3)))
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(SqsConsumerHandler.margin(Duration.ofSeconds(8), Duration.ofSeconds(3)))
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void theHandlerDoesNotReturnWhileAnEffectStillRuns() throws Exception {
        Future<SQSBatchResponse> response = calls.submit(
                () -> handler.handleRequest(event(record("m1", "hang-1")), LambdaContexts.deadlineIn(1500)));

        // Past the batch's budget the record is reported timed out, but the sandbox must not freeze with its effect
        // still running: a thawed thread would go on after its lease.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> !response.isDone());
        hung.release();

        SQSBatchResponse answer = response.get(10, TimeUnit.SECONDS);
        assertThat(answer.getBatchItemFailures())
                .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("m1");
        assertThat(effects).as("the effect ended before the handler returned").containsEntry("hang-1", 1);
    }

    static SQSEvent.SQSMessage record(String messageId, String key) {
        SQSEvent.SQSMessage r = new SQSEvent.SQSMessage();
        r.setMessageId(messageId);
        r.setReceiptHandle("rh-" + messageId);
        r.setBody("{\"key\":\"" + key + "\"}");
        r.setEventSourceArn(QUEUE);
        r.setAttributes(Map.of("ApproximateReceiveCount", "1"));
        return r;
    }

    static SQSEvent event(SQSEvent.SQSMessage... records) {
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(records));
        return event;
    }
}
