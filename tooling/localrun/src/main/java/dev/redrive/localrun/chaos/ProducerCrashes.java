package dev.redrive.localrun.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Hook;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Reply;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Verdict;
import dev.redrive.localrun.lambda.FunctionInstance;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The producer's faults, injected from the DynamoDB proxies of its sandboxes: a sandbox killed (SIGKILL) at a
 * {@link ProducerCrashPoint}, and DynamoDB refusing the relay's marks. Where it strikes is a {@link Trigger}'s call:
 * armed by idempotency key (each arming strikes once: the end-to-end tests aim at one checkout), or drawn by the chaos
 * run's {@link FaultInjector} at the point's kill rate, per order. Every item of an order (reservation, order, outbox
 * event) is keyed {@code order#<id>}, and the checkout's order id is derived from its key.
 */
public final class ProducerCrashes {

    /**
     * Decides whether a sandbox dies at {@code point} on a call about {@code orders} (their {@code order#} keys), and
     * hears of each death it decided once the call reached the point (a call another hook answered instead never
     * does), just before the sandbox is killed: whoever sees the death finds it counted.
     */
    public interface Trigger {
        boolean strikes(ProducerCrashPoint point, List<String> orders);

        default void struck(ProducerCrashPoint point) {}
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<ProducerCrashPoint, Set<String>> armed = new EnumMap<>(ProducerCrashPoint.class);
    private final Map<ProducerCrashPoint, AtomicLong> struck = new EnumMap<>(ProducerCrashPoint.class);
    private final Trigger trigger;
    private volatile boolean marksRefused;
    private final AtomicLong marksRefusedCount = new AtomicLong();

    /** Strikes where {@link #arm} aimed it. */
    public ProducerCrashes() {
        this(null);
    }

    ProducerCrashes(Trigger trigger) {
        for (ProducerCrashPoint p : ProducerCrashPoint.values()) {
            armed.put(p, ConcurrentHashMap.newKeySet());
            struck.put(p, new AtomicLong());
        }
        this.trigger = trigger == null ? this::armedFor : trigger;
    }

    /**
     * Strikes as {@code faults} draws it: at each point, per order (the first a call names), at the plan's kill rate
     * for the point, counted as a {@link FaultKind#SANDBOX_KILL} at the point.
     */
    public static ProducerCrashes drawnBy(FaultInjector faults) {
        return new ProducerCrashes(new Trigger() {
            @Override
            public boolean strikes(ProducerCrashPoint point, List<String> orders) {
                return !orders.isEmpty()
                        && faults.draw(point.id(), orders.get(0))
                                .wouldStrike(
                                        FaultKind.SANDBOX_KILL, faults.plan().killRate(point));
            }

            @Override
            public void struck(ProducerCrashPoint point) {
                faults.record(FaultKind.SANDBOX_KILL, point.id());
            }
        });
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
        /* A call forwarded to DynamoDB: what it was and which process sent it. */
        record Sent(String operation, JsonNode body, long generation) {}
        ThreadLocal<Sent> sent = new ThreadLocal<>();
        return new Hook() {
            @Override
            public Verdict before(Call call) {
                sent.remove();
                FunctionInstance sb = sandbox.get();
                if (sb == null || mine.isEmpty() && !marksRefused) {
                    return Verdict.pass();
                }
                String op = call.operation();
                JsonNode body = parse(call);
                if (marksRefused
                        && CheckoutNames.OUTBOX_RELAY.equals(function)
                        && ProducerCrashPoint.isOutboxMark(op, body)) {
                    marksRefusedCount.incrementAndGet();
                    return AwsFaults.dynamoDbThrottle();
                }
                long generation = sb.generation();
                for (ProducerCrashPoint p : mine) {
                    if (!p.afterTheAnswer() && p.isAt(op, body) && trigger.strikes(p, orderKeys(body))) {
                        recordStrike(p); // before the kill: whoever sees the death finds it counted
                        sb.kill(generation);
                        return Verdict.drop();
                    }
                }
                sent.set(new Sent(op, body, generation));
                return Verdict.pass();
            }

            /*
             * The points after the answer are decided here, on a call DynamoDB answered: a call that a later hook
             * answered or dropped instead never reached them, so it neither strikes nor uses up a first opportunity.
             */
            @Override
            public Verdict after(Call call, Reply reply) {
                Sent s = sent.get();
                sent.remove();
                FunctionInstance sb = sandbox.get();
                if (s == null || sb == null) {
                    return Verdict.pass();
                }
                for (ProducerCrashPoint p : mine) {
                    if (p.afterTheAnswer()
                            && p.isAt(s.operation(), s.body())
                            && trigger.strikes(p, orderKeys(s.body()))) {
                        recordStrike(p); // before the kill: whoever sees the death finds it counted
                        sb.kill(s.generation()); // applied (or refused) by DynamoDB; the sandbox never reads the answer
                        return Verdict.drop();
                    }
                }
                return Verdict.pass();
            }
        };
    }

    private void recordStrike(ProducerCrashPoint point) {
        struck.get(point).incrementAndGet();
        trigger.struck(point);
    }

    private boolean armedFor(ProducerCrashPoint point, List<String> orders) {
        Set<String> aimed = armed.get(point);
        if (aimed.isEmpty()) {
            return false;
        }
        for (String pk : orders) {
            if (aimed.remove(pk)) {
                return true;
            }
        }
        return false;
    }

    /** The {@code order#} keys a call names, in its order, each once. */
    private static List<String> orderKeys(JsonNode body) {
        Set<String> keys = new LinkedHashSet<>();
        for (JsonNode pk : body.findValues("pk")) {
            String s = pk.path("S").asText("");
            if (s.startsWith("order#")) {
                keys.add(s);
            }
        }
        return List.copyOf(keys);
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
