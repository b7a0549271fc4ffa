package dev.redrive.localrun.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Hook;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Reply;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Verdict;
import dev.redrive.localrun.lambda.FunctionInstance;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The producer's faults, injected from the DynamoDB proxies of its sandboxes: a sandbox killed (SIGKILL) at a
 * {@link ProducerCrashPoint} for the checkouts it is armed with (each arming strikes once), and DynamoDB refusing the
 * relay's marks. Armed by idempotency key: the checkout's order id is derived from it, and every item of the order
 * (reservation, order, outbox event) is keyed {@code order#<id>}.
 */
public final class ProducerCrashes {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<ProducerCrashPoint, Set<String>> armed = new EnumMap<>(ProducerCrashPoint.class);
    private final Map<ProducerCrashPoint, AtomicLong> struck = new EnumMap<>(ProducerCrashPoint.class);
    private volatile boolean marksRefused;
    private final AtomicLong marksRefusedCount = new AtomicLong();

    public ProducerCrashes() {
        for (ProducerCrashPoint p : ProducerCrashPoint.values()) {
            armed.put(p, ConcurrentHashMap.newKeySet());
            struck.put(p, new AtomicLong());
        }
    }

    /** The next time the checkout of {@code idempotencyKey} reaches {@code point}, its sandbox dies there. */
    public void arm(ProducerCrashPoint point, String idempotencyKey) {
        armed.get(point).add("order#" + CheckoutService.orderIdOf(idempotencyKey));
    }

    /** How many sandboxes were killed at {@code point}. */
    public long struck(ProducerCrashPoint point) {
        return struck.get(point).get();
    }

    /**
     * Starts or ends DynamoDB refusing the relay's marks (ProvisionedThroughputExceeded): the events it publishes
     * meanwhile stay unpublished in the outbox, for the outbox sweep to republish.
     */
    public void refuseRelayMarks(boolean on) {
        marksRefused = on;
    }

    public long marksRefused() {
        return marksRefusedCount.get();
    }

    /** The hook of one sandbox slot's DynamoDB proxy, for {@code function}'s sandbox in that slot. */
    public Hook hook(String function, Supplier<FunctionInstance> sandbox) {
        List<ProducerCrashPoint> mine = new ArrayList<>();
        for (ProducerCrashPoint p : ProducerCrashPoint.values()) {
            if (p.function().equals(function)) {
                mine.add(p);
            }
        }
        ThreadLocal<Long> killOnAnswer = new ThreadLocal<>();
        return new Hook() {
            @Override
            public Verdict before(Call call) {
                killOnAnswer.remove();
                FunctionInstance sb = sandbox.get();
                if (sb == null || mine.isEmpty() && !marksRefused) {
                    return Verdict.pass();
                }
                String op = call.operation();
                JsonNode body = parse(call);
                if (marksRefused
                        && Handlers.OUTBOX_RELAY.equals(function)
                        && ProducerCrashPoint.isOutboxMark(op, body)) {
                    marksRefusedCount.incrementAndGet();
                    return AwsFaults.dynamoDbThrottle();
                }
                for (ProducerCrashPoint p : mine) {
                    if (p.isAt(op, body) && strikes(p, body)) {
                        long generation = sb.generation();
                        struck.get(p).incrementAndGet();
                        if (!p.afterTheAnswer()) {
                            sb.kill(generation);
                            return Verdict.drop();
                        }
                        killOnAnswer.set(generation);
                    }
                }
                return Verdict.pass();
            }

            @Override
            public Verdict after(Call call, Reply reply) {
                Long generation = killOnAnswer.get();
                killOnAnswer.remove();
                FunctionInstance sb = sandbox.get();
                if (generation == null || sb == null) {
                    return Verdict.pass();
                }
                sb.kill(generation); // applied (or refused) by DynamoDB; the sandbox never reads the answer
                return Verdict.drop();
            }
        };
    }

    private boolean strikes(ProducerCrashPoint point, JsonNode body) {
        Set<String> orders = armed.get(point);
        if (orders.isEmpty()) {
            return false;
        }
        for (String pk : partitionKeys(body)) {
            if (orders.remove(pk)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> partitionKeys(JsonNode body) {
        List<String> keys = new ArrayList<>();
        for (JsonNode pk : body.findValues("pk")) {
            String s = pk.path("S").asText(null);
            if (s != null) {
                keys.add(s);
            }
        }
        return keys;
    }

    private static JsonNode parse(Call call) {
        if (call.body().length == 0) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(call.body());
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }
}
