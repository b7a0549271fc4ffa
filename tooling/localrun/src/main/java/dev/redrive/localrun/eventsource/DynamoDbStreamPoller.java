package dev.redrive.localrun.eventsource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.localstack.StreamEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Lambda's DynamoDB stream event source mapping, locally: reads every shard of the stream in order (one batch in
 * flight per shard: a parallelization factor of 1), drops the records the filter does not match, and invokes the
 * function with up to {@code batchSize} records. What Lambda does with a failed batch is done here too:
 * <ul>
 *   <li>with ReportBatchItemFailures, the records before the first listed failure are done, and the batch is retried
 *       from it; an identifier it did not send, or an answer that is not JSON, fails the whole batch;</li>
 *   <li>a function error or a timeout fails the whole batch: with bisect on, it is split in two and each half is
 *       retried on its own;</li>
 *   <li>after {@code maximumRetryAttempts} retries (each failed invocation of a record counts one), the batch's
 *       description (shard, first and last sequence number, the condition) goes to the on-failure SQS queue as
 *       Lambda writes it, and the shard moves on.</li>
 * </ul>
 * Records are never delivered out of order within a shard, and a shard waits for its batch to finish.
 */
public final class DynamoDbStreamPoller implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DynamoDbStreamPoller.class);
    /** How often an idle shard is read again: Lambda polls a stream's shards four times a second. */
    private static final Duration IDLE_POLL = Duration.ofMillis(250);
    /** How often the stream is described again, for new shards. */
    private static final Duration SHARD_REFRESH = Duration.ofSeconds(5);

    /** Invokes the function, synchronously. */
    public interface Invoker {
        InvocationResult invoke(String payload) throws InterruptedException;
    }

    /**
     * The mapping's settings.
     *
     * @param streamArn               the stream
     * @param functionArn             the function, for the on-failure record
     * @param batchSize               records per invocation
     * @param filter                  which records are delivered
     * @param bisectOnFunctionError   split a failed batch in two
     * @param maximumRetryAttempts    retries before the on-failure destination; negative: without end
     * @param onFailureQueueUrl       where a batch that exhausted its retries is described
     * @param reportBatchItemFailures whether the function answers with {@code batchItemFailures}
     * @param trimHorizon             start from the oldest record (else from the newest)
     */
    public record Settings(
            String streamArn,
            String functionArn,
            int batchSize,
            EventFilter filter,
            boolean bisectOnFunctionError,
            int maximumRetryAttempts,
            Optional<String> onFailureQueueUrl,
            boolean reportBatchItemFailures,
            boolean trimHorizon) {}

    private final DynamoDbStreamsClient streams;
    private final SqsClient sqs;
    private final Invoker function;
    private final String name;
    private final Settings settings;
    private final String region;
    private final ObjectMapper json = new ObjectMapper();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private final Map<String, ShardReader> shards = new LinkedHashMap<>();
    private final Object idle = new Object();
    private boolean firstDiscovery = true;
    private long refreshedAt;

    private final AtomicLong recordsRead = new AtomicLong();
    private final AtomicLong recordsFilteredOut = new AtomicLong();
    private final AtomicLong recordsDelivered = new AtomicLong();
    private final AtomicLong invocations = new AtomicLong();
    private final AtomicLong failedInvocations = new AtomicLong();
    private final AtomicLong bisections = new AtomicLong();
    private final AtomicLong recordsSentToOnFailure = new AtomicLong();
    private final AtomicLong streamErrors = new AtomicLong();

    public DynamoDbStreamPoller(
            DynamoDbStreamsClient streams,
            SqsClient sqs,
            Invoker function,
            String name,
            Settings settings,
            String region) {
        this.streams = streams;
        this.sqs = sqs;
        this.function = function;
        this.name = name;
        this.settings = settings;
        this.region = region;
        this.thread = new Thread(this::loop, "stream-esm-" + name);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    private final class ShardReader {
        final String shardId;
        String iterator;
        String lastSequenceRead;
        boolean ended;
        final Deque<Record> pending = new ArrayDeque<>();

        ShardReader(String shardId) {
            this.shardId = shardId;
        }
    }

    private void loop() {
        while (running.get()) {
            try {
                if (System.nanoTime() - refreshedAt > SHARD_REFRESH.toNanos() || shards.isEmpty()) {
                    refreshShards();
                }
                boolean delivered = false;
                for (ShardReader shard : shards.values()) {
                    read(shard);
                    if (!shard.pending.isEmpty()) {
                        List<Record> batch = new ArrayList<>();
                        while (batch.size() < settings.batchSize() && !shard.pending.isEmpty()) {
                            batch.add(shard.pending.poll());
                        }
                        deliver(shard, batch);
                        delivered = true;
                    }
                }
                if (!delivered) {
                    synchronized (idle) {
                        idle.wait(IDLE_POLL.toMillis());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (SdkException e) {
                streamErrors.incrementAndGet();
                if (running.get()) {
                    LOG.debugf("stream poller of %s: %s", name, e.getMessage());
                }
            } catch (RuntimeException e) {
                if (running.get()) {
                    LOG.warnf("stream poller of %s: %s", name, e.toString());
                }
            }
        }
    }

    private void refreshShards() {
        refreshedAt = System.nanoTime();
        List<Shard> described = streams.describeStream(b -> b.streamArn(settings.streamArn()))
                .streamDescription()
                .shards();
        for (Shard s : described) {
            if (!shards.containsKey(s.shardId())) {
                ShardReader reader = new ShardReader(s.shardId());
                // a shard found after the first look is read from its start, whatever the starting position
                ShardIteratorType type = settings.trimHorizon() || !firstDiscovery
                        ? ShardIteratorType.TRIM_HORIZON
                        : ShardIteratorType.LATEST;
                reader.iterator = streams.getShardIterator(b -> b.streamArn(settings.streamArn())
                                .shardId(s.shardId())
                                .shardIteratorType(type))
                        .shardIterator();
                shards.put(s.shardId(), reader);
            }
        }
        firstDiscovery = false;
    }

    /** Reads what the shard has past its last read, until the pending records fill a batch. */
    private void read(ShardReader shard) {
        while (!shard.ended && shard.pending.size() < settings.batchSize()) {
            var page = getRecords(shard);
            for (Record r : page.records()) {
                recordsRead.incrementAndGet();
                shard.lastSequenceRead = r.dynamodb().sequenceNumber();
                if (settings.filter().matches(json.valueToTree(record(r)))) {
                    shard.pending.add(r);
                } else {
                    recordsFilteredOut.incrementAndGet();
                }
            }
            shard.iterator = page.nextShardIterator();
            if (shard.iterator == null) {
                shard.ended = true; // a closed shard, read to its end
            }
            if (page.records().isEmpty()) {
                return;
            }
        }
    }

    private software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse getRecords(ShardReader shard) {
        try {
            String at = shard.iterator;
            return streams.getRecords(b -> b.shardIterator(at).limit(1000));
        } catch (ExpiredIteratorException e) {
            shard.iterator = streams.getShardIterator(b -> {
                        b.streamArn(settings.streamArn()).shardId(shard.shardId);
                        if (shard.lastSequenceRead == null) {
                            b.shardIteratorType(ShardIteratorType.TRIM_HORIZON);
                        } else {
                            b.shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                                    .sequenceNumber(shard.lastSequenceRead);
                        }
                    })
                    .shardIterator();
            String at = shard.iterator;
            return streams.getRecords(b -> b.shardIterator(at).limit(1000));
        }
    }

    private Map<String, Object> record(Record r) {
        return StreamEvents.lambdaRecord(r, settings.streamArn(), region);
    }

    /** A part of a batch on its way, with how many times its records were invoked and failed. */
    private record Part(List<Record> records, int failures) {}

    private void deliver(ShardReader shard, List<Record> batch) throws InterruptedException {
        Deque<Part> work = new ArrayDeque<>();
        work.push(new Part(batch, 0));
        while (!work.isEmpty() && running.get()) {
            Part part = work.pop();
            int failedFrom = invoke(part.records());
            if (failedFrom < 0) {
                recordsDelivered.addAndGet(part.records().size());
                continue;
            }
            failedInvocations.incrementAndGet();
            recordsDelivered.addAndGet(failedFrom);
            List<Record> rest =
                    part.records().subList(failedFrom, part.records().size());
            int failures = part.failures() + 1;
            if (settings.maximumRetryAttempts() >= 0 && failures > settings.maximumRetryAttempts()) {
                sendToOnFailure(shard, rest, failures);
                continue;
            }
            backOff(failures);
            boolean wholeFailed = failedFrom == 0 && !partial;
            if (wholeFailed && settings.bisectOnFunctionError() && rest.size() > 1) {
                bisections.incrementAndGet();
                int half = rest.size() / 2;
                work.push(new Part(List.copyOf(rest.subList(half, rest.size())), failures));
                work.push(new Part(List.copyOf(rest.subList(0, half)), failures));
            } else {
                work.push(new Part(List.copyOf(rest), failures));
            }
        }
    }

    /** Whether the last failed invocation listed its failures (a partial answer), rather than failing whole. */
    private boolean partial;

    /**
     * Invokes the function with {@code records}; the index of the first record to retry, or -1 when all are done.
     */
    private int invoke(List<Record> records) throws InterruptedException {
        invocations.incrementAndGet();
        partial = false;
        List<Object> list = new ArrayList<>();
        records.forEach(r -> list.add(record(r)));
        String payload;
        try {
            payload = json.writeValueAsString(Map.of("Records", list));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not render a stream event", e);
        }
        InvocationResult result = function.invoke(payload);
        if (!(result instanceof InvocationResult.Response response)) {
            return 0;
        }
        if (!settings.reportBatchItemFailures()) {
            return -1;
        }
        JsonNode body;
        try {
            body = json.readTree(response.body());
        } catch (JsonProcessingException e) {
            return 0;
        }
        if (body == null || body.isNull() || body.isEmpty()) {
            return -1;
        }
        JsonNode items = body.get("batchItemFailures");
        if (items == null || items.isNull() || (items.isArray() && items.isEmpty())) {
            return -1;
        }
        if (!items.isArray()) {
            return 0;
        }
        int first = Integer.MAX_VALUE;
        for (JsonNode item : items) {
            String id = item.path("itemIdentifier").asText("");
            int at = -1;
            for (int i = 0; i < records.size(); i++) {
                if (records.get(i).dynamodb().sequenceNumber().equals(id)) {
                    at = i;
                    break;
                }
            }
            if (at < 0) {
                return 0; // an identifier Lambda did not send (or an empty one) fails the whole batch
            }
            first = Math.min(first, at);
        }
        partial = true;
        return first;
    }

    private void backOff(int failures) throws InterruptedException {
        long millis = Math.min(2_000, 100L << Math.min(10, failures - 1));
        synchronized (idle) {
            idle.wait(millis);
        }
    }

    /** Describes the records that exhausted their retries on the on-failure queue, as Lambda does. */
    private void sendToOnFailure(ShardReader shard, List<Record> records, int invokeCount) {
        recordsSentToOnFailure.addAndGet(records.size());
        if (settings.onFailureQueueUrl().isEmpty()) {
            LOG.warnf(
                    "stream poller of %s: %d records exhausted their retries and are skipped (no on-failure "
                            + "destination)",
                    name, records.size());
            return;
        }
        ObjectNode m = json.createObjectNode();
        ObjectNode request = m.putObject("requestContext");
        request.put("requestId", UUID.randomUUID().toString());
        request.put("functionArn", settings.functionArn());
        request.put("condition", "RetryAttemptsExhausted");
        request.put("approximateInvokeCount", invokeCount);
        ObjectNode response = m.putObject("responseContext");
        response.put("statusCode", 200);
        response.put("executedVersion", "$LATEST");
        response.put("functionError", "Unhandled");
        m.put("version", "1.0");
        m.put("timestamp", Instant.now().toString());
        ObjectNode info = m.putObject("DDBStreamBatchInfo");
        info.put("shardId", shard.shardId);
        info.put("startSequenceNumber", records.get(0).dynamodb().sequenceNumber());
        info.put("endSequenceNumber", records.get(records.size() - 1).dynamodb().sequenceNumber());
        Instant first = records.get(0).dynamodb().approximateCreationDateTime();
        Instant last = records.get(records.size() - 1).dynamodb().approximateCreationDateTime();
        if (first != null) {
            info.put("approximateArrivalOfFirstRecord", first.toString());
        }
        if (last != null) {
            info.put("approximateArrivalOfLastRecord", last.toString());
        }
        info.put("batchSize", records.size());
        info.put("streamArn", settings.streamArn());
        sqs.sendMessage(b -> b.queueUrl(settings.onFailureQueueUrl().get()).messageBody(m.toString()));
    }

    /** What the mapping did so far: records read, filtered out, delivered; invocations; retries' outcomes. */
    public Map<String, Long> figures() {
        Map<String, Long> f = new LinkedHashMap<>();
        f.put("streamRecordsRead", recordsRead.get());
        f.put("streamRecordsFilteredOut", recordsFilteredOut.get());
        f.put("streamRecordsDelivered", recordsDelivered.get());
        f.put("streamInvocations", invocations.get());
        f.put("streamInvocationsFailed", failedInvocations.get());
        f.put("streamBisections", bisections.get());
        f.put("streamRecordsSentToOnFailure", recordsSentToOnFailure.get());
        f.put("streamReadErrors", streamErrors.get());
        return f;
    }

    /** Records delivered to the function and done (answered without a failure for them). */
    public long delivered() {
        return recordsDelivered.get();
    }

    @Override
    public void close() {
        running.set(false);
        synchronized (idle) {
            idle.notifyAll();
        }
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
