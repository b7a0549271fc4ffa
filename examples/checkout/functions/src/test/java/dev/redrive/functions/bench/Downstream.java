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
 * The external dependency both sides of {@link CompareBenchmark} call once per message they apply: a call that takes
 * {@code latency} (a sleep: the same for both sides) and then answers. A key starting with {@value #FAILING} gets a
 * transient failure after the same latency (a 503 from the downstream). It counts its calls, so the benchmark can
 * check that both sides did the same work.
 */
final class Downstream {

    static final String FAILING = "failing-";

    private final Duration latency;
    private final AtomicInteger calls = new AtomicInteger();

    Downstream(Duration latency) {
        this.latency = latency;
    }

    String call(String key) throws InterruptedException {
        calls.incrementAndGet();
        if (!latency.isZero()) {
            Thread.sleep(latency.toMillis());
        }
        if (key.startsWith(FAILING)) {
            throw new TransientFailure("the downstream answered 503", "downstream");
        }
        return "sent";
    }

    int calls() {
        return calls.get();
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
