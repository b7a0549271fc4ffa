package dev.redrive.localrun.eventsource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.lambda.FunctionPool;
import dev.redrive.localrun.lambda.InvocationResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Lambda's SQS event source mapping, locally: long-polls the queue with up to {@code maximumConcurrency} pollers,
 * gathers up to {@code batchSize} messages within the batching window, invokes the function, and deletes only what
 * succeeded. With ReportBatchItemFailures the records listed in {@code batchItemFailures} stay; an invalid response
 * (not JSON, an unknown item identifier) or a function error fails the whole batch; a timeout deletes nothing.
 */
public final class SqsEventSourcePoller implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SqsEventSourcePoller.class);

    /** The mapping's settings. */
    public record Settings(
            String queueUrl,
            String queueArn,
            int batchSize,
            Duration batchingWindow,
            int maximumConcurrency,
            boolean reportBatchItemFailures) {}

    /** Told what the event-source mapping does with each batch (fault injection and the run's timeline listen). */
    public interface Listener {
        Listener NONE = new Listener() {};

        /** A batch was received from the queue. */
        default void received(List<Message> batch) {}

        /**
         * The function answered the batch; true makes the mapping's worker die before its DeleteMessageBatch (the
         * batch comes back after its visibility timeout).
         */
        default boolean diesBeforeDelete(List<Message> batch) {
            return false;
        }

        /** These messages were deleted (the function handled them). */
        default void deleted(List<String> messageIds) {}
    }

    private volatile Listener listener = Listener.NONE;
    private final SqsClient sqs;
    private final FunctionPool function;
    private final Settings settings;
    private final ObjectMapper json = new ObjectMapper();
    private final String region;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService pollers;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong deleted = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong failedBatches = new AtomicLong();
    private final AtomicLong sqsCalls = new AtomicLong();
    private final AtomicLong sqsErrors = new AtomicLong();

    public SqsEventSourcePoller(SqsClient sqs, FunctionPool function, Settings settings, String region) {
        this.sqs = sqs;
        this.function = function;
        this.settings = settings;
        this.region = region;
        this.pollers = Executors.newFixedThreadPool(Math.max(1, settings.maximumConcurrency()), r -> {
            Thread t = new Thread(r, "esm-" + function.name());
            t.setDaemon(true);
            return t;
        });
    }

    public void listener(Listener listener) {
        this.listener = listener == null ? Listener.NONE : listener;
    }

    public void start() {
        for (int i = 0; i < Math.max(1, settings.maximumConcurrency()); i++) {
            pollers.submit(this::loop);
        }
    }

    private void loop() {
        while (running.get()) {
            try {
                List<Message> batch = gather();
                if (!batch.isEmpty()) {
                    deliver(batch);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (SdkServiceException e) {
                // SQS answered an error (a 500, say): what was not deleted comes back after its visibility timeout
                sqsErrors.incrementAndGet();
                LOG.debugf("poller of %s: SQS answered %d: %s", function.name(), e.statusCode(), e.getMessage());
            } catch (RuntimeException e) {
                if (running.get()) {
                    LOG.warnf("poller of %s: %s", function.name(), e.getMessage());
                }
            }
        }
    }

    private List<Message> gather() {
        List<Message> batch = new ArrayList<>();
        long windowEnd = System.nanoTime() + settings.batchingWindow().toNanos();
        do {
            int want = Math.min(10, settings.batchSize() - batch.size());
            sqsCalls.incrementAndGet();
            List<Message> got = sqs.receiveMessage(b -> b.queueUrl(settings.queueUrl())
                            .maxNumberOfMessages(want)
                            .waitTimeSeconds(batch.isEmpty() ? 2 : 0)
                            .messageAttributeNames("All")
                            .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                    .messages();
            batch.addAll(got);
            if (got.isEmpty() && !batch.isEmpty()) {
                break;
            }
        } while (running.get() && batch.size() < settings.batchSize() && System.nanoTime() < windowEnd);
        received.addAndGet(batch.size());
        if (!batch.isEmpty()) {
            listener.received(batch);
        }
        return batch;
    }

    private void deliver(List<Message> batch) throws InterruptedException {
        batches.incrementAndGet();
        InvocationResult result = function.invoke(SqsEvents.event(json, batch, settings.queueArn(), region));
        Set<String> failed = failures(result, batch);
        if (failed == null) {
            failedBatches.incrementAndGet();
            return; // the whole batch comes back after its visibility timeout
        }
        if (listener.diesBeforeDelete(batch)) {
            return; // the mapping's worker died: nothing is deleted, the batch comes back
        }
        List<DeleteMessageBatchRequestEntry> deletes = new ArrayList<>();
        java.util.Map<String, String> idsByEntry = new java.util.HashMap<>();
        for (Message m : batch) {
            if (!failed.contains(m.messageId())) {
                idsByEntry.put("d" + deletes.size(), m.messageId());
                deletes.add(DeleteMessageBatchRequestEntry.builder()
                        .id("d" + deletes.size())
                        .receiptHandle(m.receiptHandle())
                        .build());
            }
        }
        for (int from = 0; from < deletes.size(); from += 10) {
            List<DeleteMessageBatchRequestEntry> chunk = deletes.subList(from, Math.min(deletes.size(), from + 10));
            sqsCalls.incrementAndGet();
            var r = sqs.deleteMessageBatch(b -> b.queueUrl(settings.queueUrl()).entries(chunk));
            deleted.addAndGet(r.successful().size());
            List<String> ids = new ArrayList<>();
            for (var ok : r.successful()) {
                ids.add(idsByEntry.get(ok.id()));
            }
            listener.deleted(ids);
        }
    }

    /** The ids to keep, or null when the whole batch failed. */
    private Set<String> failures(InvocationResult result, List<Message> batch) {
        if (!(result instanceof InvocationResult.Response response)) {
            return null;
        }
        if (!settings.reportBatchItemFailures()) {
            return Set.of();
        }
        Set<String> ids = new HashSet<>();
        batch.forEach(m -> ids.add(m.messageId()));
        try {
            JsonNode body = json.readTree(response.body());
            if (body == null || body.isNull() || body.isEmpty()) {
                return Set.of();
            }
            JsonNode items = body.get("batchItemFailures");
            if (items == null || items.isNull()) {
                return Set.of();
            }
            if (!items.isArray()) {
                return null;
            }
            Set<String> failed = new HashSet<>();
            for (JsonNode item : items) {
                String id = item.path("itemIdentifier").asText("");
                if (!ids.contains(id)) {
                    return null; // Lambda fails the whole batch on an identifier it did not send
                }
                failed.add(id);
            }
            return failed;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    public long received() {
        return received.get();
    }

    public long deleted() {
        return deleted.get();
    }

    public long batches() {
        return batches.get();
    }

    public long failedBatches() {
        return failedBatches.get();
    }

    public long sqsCalls() {
        return sqsCalls.get();
    }

    /** Receives and deletes SQS answered with an error. */
    public long sqsErrors() {
        return sqsErrors.get();
    }

    @Override
    public void close() {
        running.set(false);
        pollers.shutdown();
        try {
            if (!pollers.awaitTermination(10, TimeUnit.SECONDS)) {
                pollers.shutdownNow();
            }
        } catch (InterruptedException e) {
            pollers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
