package dev.redrive.testing;

import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.consumer.ExternalEffectConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A consumer for core tests. A body is {@code key} or {@code key|payload}; an empty key is unreadable. What the effect
 * does is scripted per key; by default it records the key and returns "ok".
 */
public final class ScriptedConsumer implements ExternalEffectConsumer<String[]> {

    /** An effect script: given the key and the context, returns a result or throws. */
    @FunctionalInterface
    public interface Script {
        String run(String key, EffectContext context) throws Exception;
    }

    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> applied = new ConcurrentHashMap<>();
    private final List<String> order = new CopyOnWriteArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public ParsedMessage<String[]> parse(IncomingMessage message) {
        String[] parts = message.body().split("\\|", 2);
        if (parts[0].isBlank()) {
            throw new SchemaViolation("MissingKey", "no key in the message");
        }
        String payload = parts.length > 1 ? parts[1] : "";
        return new ParsedMessage<>(new String[] {parts[0], payload}, parts[0], parts[0] + "|" + payload);
    }

    @Override
    public String apply(String[] event, EffectContext context) throws Exception {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        try {
            Script script = scripts.get(event[0]);
            String result = script == null ? "ok" : script.run(event[0], context);
            applied.computeIfAbsent(event[0], k -> new AtomicInteger()).incrementAndGet();
            order.add(event[0]);
            return result;
        } finally {
            inFlight.decrementAndGet();
        }
    }

    public ScriptedConsumer on(String key, Script script) {
        scripts.put(key, script);
        return this;
    }

    public ScriptedConsumer failing(String key, BiFunction<String, EffectContext, RuntimeException> error) {
        return on(key, (k, c) -> {
            throw error.apply(k, c);
        });
    }

    public int applied(String key) {
        AtomicInteger n = applied.get(key);
        return n == null ? 0 : n.get();
    }

    /** The keys whose effects completed, in completion order. */
    public List<String> order() {
        return List.copyOf(order);
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }
}
