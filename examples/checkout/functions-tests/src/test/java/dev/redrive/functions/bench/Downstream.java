package dev.redrive.functions.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.consumer.ExternalEffectConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.TransientFailure;
import dev.redrive.functions.testing.CountingConsumer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The external dependency every side of {@link CompareBenchmark} calls once per message it applies: a call that takes
 * {@code latency} (a sleep: the same for every side) and then answers. A key starting with {@value #FAILING} gets a
 * transient failure after the same latency (a 503 from the downstream). It counts its calls, so the benchmark can
 * check that every side did the same work, and the most calls it had in flight at once.
 */
final class Downstream {

    static final String FAILING = "failing-";

    private final Duration latency;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();

    Downstream(Duration latency) {
        this.latency = latency;
    }

    String call(String key) throws InterruptedException {
        calls.incrementAndGet();
        mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            if (!latency.isZero()) {
                Thread.sleep(latency.toMillis());
            }
        } finally {
            inFlight.decrementAndGet();
        }
        if (key.startsWith(FAILING)) {
            throw new TransientFailure("the downstream answered 503", "downstream");
        }
        return "sent";
    }

    int calls() {
        return calls.get();
    }

    /** The most calls in flight at once since the last time this was asked. */
    int takeMostInFlight() {
        return mostInFlight.getAndSet(0);
    }

    /** Redrive's consumer of the downstream: bodies are {@code {"key": ...}}, the key is the producer key. */
    ExternalEffectConsumer<JsonNode> asRedriveConsumer() {
        CountingConsumer parser = new CountingConsumer(); // only its parse is used
        return new ExternalEffectConsumer<>() {
            @Override
            public String name() {
                return "downstream";
            }

            @Override
            public ParsedMessage<JsonNode> parse(IncomingMessage message) {
                return parser.parse(message);
            }

            @Override
            public String apply(JsonNode event, EffectContext context) throws InterruptedException {
                return call(event.get("key").asText());
            }
        };
    }
}
