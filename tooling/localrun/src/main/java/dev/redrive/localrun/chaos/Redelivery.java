package dev.redrive.localrun.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Hook;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Reply;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Verdict;
import java.io.IOException;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * At-least-once delivery, played from outside the relay: every message the outbox relay publishes to a consumer's queue
 * is delivered 1..C times in all, each copy a new message (a new message id, as a republished event or a producer's
 * retry gets), sent by one of several producer threads at its own moment within a spread. The number of copies of an
 * event in a queue is drawn once, from the seed, the event id and the queue: the same run sends the same copies
 * whatever order the relay publishes in. A copy is the message as the relay sent it, body and attributes, so the
 * consumers cannot tell it from the original.
 *
 * <p>Hooked on the relay's SQS proxy, after the answer: only what SQS accepted is copied (an entry the queue refused is
 * the relay's to retry, and is copied when it is accepted).
 */
public final class Redelivery implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SqsClient sqs;
    private final MessageTracker tracker;
    private final long seed;
    private final int maxCopies;
    private final Duration spread;
    private final ScheduledExecutorService producers;
    private final Set<String> decided = ConcurrentHashMap.newKeySet();
    private final Map<String, Set<String>> publishedEvents = new ConcurrentHashMap<>();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong copies = new AtomicLong();
    private final AtomicLong copiesSent = new AtomicLong();
    private final AtomicLong copiesFailed = new AtomicLong();

    /**
     * @param sqs       the client the copies are sent with (the run's own, straight to local SQS)
     * @param maxCopies each message is delivered 1..maxCopies times in all (1: no copies)
     * @param spread    a copy is sent within this long of its original
     * @param producers the threads that send the copies
     */
    public Redelivery(SqsClient sqs, MessageTracker tracker, long seed, int maxCopies, Duration spread, int producers) {
        this.sqs = sqs;
        this.tracker = tracker;
        this.seed = seed;
        this.maxCopies = Math.max(1, maxCopies);
        this.spread = spread;
        this.producers = Executors.newScheduledThreadPool(Math.max(1, producers), r -> {
            Thread t = new Thread(r, "chaos-redelivery");
            t.setDaemon(true);
            return t;
        });
    }

    /** The hook of the relay's SQS proxy. */
    public Hook hook() {
        return new Hook() {
            @Override
            public Verdict after(Call call, Reply reply) {
                if (reply.status() / 100 == 2 && call.operation().startsWith("SendMessage")) {
                    copyAccepted(call, reply);
                }
                return Verdict.pass();
            }
        };
    }

    /** How many copies of an event in a queue are sent besides its original: 0..maxCopies-1, from the seed. */
    int copiesOf(String eventId, String queueUrl) {
        long draw = FaultInjector.mix(seed, eventId.hashCode(), queueUrl.hashCode(), 0x5EED);
        return (int) Long.remainderUnsigned(draw, maxCopies);
    }

    private void copyAccepted(Call call, Reply reply) {
        JsonNode request;
        JsonNode answer;
        try {
            request = JSON.readTree(call.body());
            answer = JSON.readTree(reply.body());
        } catch (IOException e) {
            return; // not the JSON protocol: nothing this run sends
        }
        String queueUrl = request.path("QueueUrl").asText("");
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        if (request.has("MessageBody")) {
            entries.put("", request);
        }
        for (JsonNode e : request.path("Entries")) {
            entries.put(e.path("Id").asText(), e);
        }
        if (answer.has("MessageId")) {
            accepted(queueUrl, entries.get(""));
        }
        for (JsonNode ok : answer.path("Successful")) {
            accepted(queueUrl, entries.get(ok.path("Id").asText()));
        }
    }

    private void accepted(String queueUrl, JsonNode entry) {
        if (entry == null) {
            return;
        }
        published.incrementAndGet();
        String body = entry.path("MessageBody").asText();
        String eventId = eventIdOf(body);
        publishedEvents
                .computeIfAbsent(queueUrl, q -> ConcurrentHashMap.newKeySet())
                .add(eventId);
        if (!decided.add(queueUrl + '\u0000' + eventId)) {
            return; // published again (the relay retried it): its copies were drawn with the first
        }
        int n = copiesOf(eventId, queueUrl);
        Map<String, MessageAttributeValue> attributes = attributes(entry.path("MessageAttributes"));
        for (int c = 1; c <= n; c++) {
            copies.incrementAndGet();
            long at = Long.remainderUnsigned(
                    FaultInjector.mix(seed, eventId.hashCode(), queueUrl.hashCode(), c), spread.toMillis() + 1);
            producers.schedule(() -> send(queueUrl, body, attributes), at, TimeUnit.MILLISECONDS);
        }
    }

    private void send(String queueUrl, String body, Map<String, MessageAttributeValue> attributes) {
        for (int attempt = 1; ; attempt++) {
            try {
                String id = sqs.sendMessage(
                                b -> b.queueUrl(queueUrl).messageBody(body).messageAttributes(attributes))
                        .messageId();
                tracker.sent(queueUrl, id, System.currentTimeMillis());
                copiesSent.incrementAndGet();
                return;
            } catch (SdkException e) {
                if (attempt >= 5 || producers.isShutdown()) {
                    copiesFailed.incrementAndGet(); // counted: the report says how many copies were not delivered
                    return;
                }
            }
        }
    }

    private static String eventIdOf(String body) {
        try {
            JsonNode event = JSON.readTree(body);
            String id = event.path("eventId").asText("");
            if (!id.isEmpty()) {
                return id;
            }
        } catch (IOException e) {
            // not JSON: the body itself names it
        }
        return body;
    }

    /** The message attributes as the JSON protocol carries them, for the copy. */
    static Map<String, MessageAttributeValue> attributes(JsonNode json) {
        Map<String, MessageAttributeValue> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> a = it.next();
            JsonNode v = a.getValue();
            MessageAttributeValue.Builder b =
                    MessageAttributeValue.builder().dataType(v.path("DataType").asText());
            if (v.has("StringValue")) {
                b.stringValue(v.get("StringValue").asText());
            }
            if (v.has("BinaryValue")) {
                b.binaryValue(SdkBytes.fromByteArray(
                        Base64.getDecoder().decode(v.get("BinaryValue").asText())));
            }
            out.put(a.getKey(), b.build());
        }
        return out;
    }

    /** Messages the relay published (accepted by SQS), copies drawn, sent, and not delivered after five attempts. */
    public Map<String, Long> figures() {
        Map<String, Long> f = new LinkedHashMap<>();
        f.put("published by the relay", published.get());
        f.put("copies drawn", copies.get());
        f.put("copies sent", copiesSent.get());
        f.put("copies not delivered", copiesFailed.get());
        return f;
    }

    /** The events the relay published to {@code queueUrl} so far (each once, however often it published it). */
    public Set<String> publishedEvents(String queueUrl) {
        return Set.copyOf(publishedEvents.getOrDefault(queueUrl, Set.of()));
    }

    /** Messages delivered to the consumers' queues so far: the relay's and the copies. */
    public long delivered() {
        return published.get() + copiesSent.get();
    }

    /** Copies drawn and not yet sent (nor given up). */
    public long pending() {
        return copies.get() - copiesSent.get() - copiesFailed.get();
    }

    @Override
    public void close() {
        producers.shutdownNow();
    }
}
