package dev.redrive.functions.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.consumer.ExternalEffectConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.core.failure.TransientFailure;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test consumer whose effect counts how often it ran per key. Bodies are JSON objects with a {@code key}; a key
 * starting with {@code always-fail} fails TRANSIENT (a dependency that is down) every time, and the effect takes
 * {@code effectMillis} so that concurrent deliveries overlap; a key starting with {@code hang} blocks until
 * {@link #releaseHung()}, ignoring interrupts (an effect stuck in I/O).
 */
public final class CountingConsumer implements ExternalEffectConsumer<JsonNode> {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();
    private final AtomicInteger attempts = new AtomicInteger();
    private volatile Duration effectDuration = Duration.ZERO;
    private volatile java.util.concurrent.CountDownLatch hung = new java.util.concurrent.CountDownLatch(1);

    @Override
    public String name() {
        return "counting";
    }

    @Override
    public ParsedMessage<JsonNode> parse(IncomingMessage message) {
        JsonNode node;
        try {
            node = JSON.readTree(message.body());
        } catch (Exception e) {
            throw new SchemaViolation("NotJson", "the message body is not JSON");
        }
        if (node == null || !node.hasNonNull("key") || node.get("key").asText().isBlank()) {
            throw new SchemaViolation("MissingKey", "the message has no 'key'");
        }
        return new ParsedMessage<>(node, node.get("key").asText(), node.toString());
    }

    @Override
    public String apply(JsonNode event, EffectContext context) throws InterruptedException {
        attempts.incrementAndGet();
        String key = event.get("key").asText();
        if (key.startsWith("always-fail")) {
            throw new TransientFailure("the downstream is down", "downstream");
        }
        if (key.startsWith("hang")) {
            hangIgnoringInterrupts();
        }
        if (!effectDuration.isZero()) {
            Thread.sleep(effectDuration.toMillis()); // the effect's own work, so deliveries overlap
        }
        effects.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        return "counted";
    }

    public int effectsFor(String key) {
        AtomicInteger n = effects.get(key);
        return n == null ? 0 : n.get();
    }

    public int attempts() {
        return attempts.get();
    }

    public void effectDuration(Duration d) {
        this.effectDuration = d;
    }

    private void hangIgnoringInterrupts() {
        java.util.concurrent.CountDownLatch latch = hung;
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException ignored) {
                // stuck in I/O: the interrupt goes unnoticed
            }
        }
    }

    /** Lets every hung effect go on. */
    public void releaseHung() {
        hung.countDown();
    }

    public void reset() {
        releaseHung();
        hung = new java.util.concurrent.CountDownLatch(1);
        effects.clear();
        attempts.set(0);
        effectDuration = Duration.ZERO;
    }
}
