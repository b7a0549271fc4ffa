package dev.redrive.localrun.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.checkout.CheckoutNames;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Hook;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Reply;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Verdict;
import dev.redrive.localrun.lambda.FunctionArtifact;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localrun.lambda.ManagedJavaRuntime;
import dev.redrive.localrun.lambda.SandboxSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The producer's crash points as the chaos run draws them, on the hook of a checkout sandbox's DynamoDB proxy, followed
 * (as in the run) by another hook that may answer a call itself (an injected AWS error) or drop it (a reset).
 */
class ProducerCrashesTest {

    @TempDir
    Path dir;

    /**
     * A crash point after the answer strikes on a call DynamoDB answered. With {@code --each-at-least-once}, a first
     * opportunity that another hook answered instead never reached the point: it must not use up the guarantee, or the
     * point strikes only by its rate (the fixed-seed chaos run once ended without a single kill at checkout-placed).
     */
    @Test
    void aCallAnotherHookAnsweredDoesNotUseUpTheFirstOpportunityOfAPointAfterTheAnswer() {
        FaultInjector faults = new FaultInjector(FaultPlan.none(20261201L)
                .withKill(ProducerCrashPoint.CHECKOUT_PLACED, 1e-9)
                .withKill(ProducerCrashPoint.CHECKOUT_RESERVED, 1e-9)
                .withEachAtLeastOnce());
        faults.enabled(true);
        Set<String> answeredByTheOther = Set.of("order#a", "order#c");
        Set<String> droppedByTheOther = Set.of("order#b");
        Hook other = new Hook() {
            @Override
            public Verdict before(Call call) {
                String body = call.bodyText();
                if (answeredByTheOther.stream().anyMatch(body::contains)) {
                    return Verdict.answer(400, "application/x-amz-json-1.0", Map.of(), THROTTLED);
                }
                return droppedByTheOther.stream().anyMatch(body::contains) ? Verdict.drop() : Verdict.pass();
            }
        };
        Hook hook = Hook.inOrder(
                ProducerCrashes.drawnBy(faults).hook(CheckoutNames.CHECKOUT, this::sandboxNeverStarted), other);

        List<String> verdicts = new ArrayList<>();
        for (String order : List.of("order#a", "order#b", "order#c", "order#d", "order#e")) {
            verdicts.add(order + " placing " + send(hook, placing(order)));
        }
        verdicts.add("order#f reserving " + send(hook, reserving("order#f")));
        verdicts.add("order#g reserving " + send(hook, reserving("order#g")));

        assertThat(verdicts)
                .containsExactly(
                        "order#a placing answered by the other hook",
                        "order#b placing dropped by the other hook",
                        "order#c placing answered by the other hook",
                        "order#d placing applied, the sandbox killed before it read the answer",
                        "order#e placing applied and answered",
                        "order#f reserving applied, the sandbox killed before it read the answer",
                        "order#g reserving applied and answered");
        assertThat(faults.counts().get(FaultKind.SANDBOX_KILL))
                .containsExactlyInAnyOrderEntriesOf(Map.of("checkout-placed", 1L, "checkout-reserved", 1L));
        assertThat(faults.notStruckYet()).isEmpty();
    }

    /**
     * A strike is counted before its sandbox is killed: the kill ends the invocation, and whoever sees that end (the
     * end-to-end test, reading the count once the checkout answered 502) must find the strike counted. Counted after,
     * a clean-clone CI run's end-to-end test read checkout-placed's count as 0 after its checkout had answered 502.
     */
    @Test
    void aStrikeIsCountedBeforeItsSandboxIsKilled() {
        List<String> seen = new ArrayList<>();
        for (ProducerCrashPoint point :
                List.of(ProducerCrashPoint.CHECKOUT_RESERVED, ProducerCrashPoint.CHECKOUT_PLACED)) {
            FunctionInstance slot = sandboxNeverStarted(point.id());
            ProducerCrashes crashes = new ProducerCrashes(new ProducerCrashes.Trigger() {
                @Override
                public boolean strikes(ProducerCrashPoint at, List<String> orders) {
                    return at == point;
                }

                @Override
                public void struck(ProducerCrashPoint at) {
                    seen.add(at.id() + (slot.doomed() ? " counted after the kill" : " counted before the kill"));
                }
            });
            Hook hook = crashes.hook(CheckoutNames.CHECKOUT, () -> slot);
            String verdict = send(
                    hook, point == ProducerCrashPoint.CHECKOUT_RESERVED ? reserving("order#r") : placing("order#p"));
            assertThat(verdict).isEqualTo("applied, the sandbox killed before it read the answer");
            assertThat(slot.doomed()).as("the sandbox was killed").isTrue();
            assertThat(crashes.struck(point)).isEqualTo(1);
        }
        assertThat(seen)
                .containsExactly(
                        "checkout-reserved counted before the kill", "checkout-placed counted before the kill");
    }

    private static final String THROTTLED =
            "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException\"}";

    /** What the proxy does with {@code call}: the hook's verdict before it, then (if forwarded) after DynamoDB's answer. */
    private static String send(Hook hook, Call call) {
        Verdict before = hook.before(call);
        switch (before.kind()) {
            case ANSWER:
                return "answered by the other hook";
            case DROP:
                return "dropped by the other hook";
            default:
                break;
        }
        Verdict after = hook.after(call, new Reply(200, "{}".getBytes(StandardCharsets.UTF_8)));
        return after.kind() == Verdict.Kind.DROP
                ? "applied, the sandbox killed before it read the answer"
                : "applied and answered";
    }

    /** The checkout's transaction that places an order: its item and its outbox event. */
    private static Call placing(String order) {
        return transaction(order, "order", "outbox#1");
    }

    /** The checkout's reservation transaction. */
    private static Call reserving(String order) {
        return transaction(order, "reservation#sku-1");
    }

    private static Call transaction(String order, String... sortKeys) {
        StringBuilder items = new StringBuilder();
        for (String sk : sortKeys) {
            items.append(items.isEmpty() ? "" : ",")
                    .append("{\"Put\":{\"TableName\":\"orders\",\"Item\":{\"pk\":{\"S\":\"")
                    .append(order)
                    .append("\"},\"sk\":{\"S\":\"")
                    .append(sk)
                    .append("\"}}}}");
        }
        return new Call(
                "dynamodb",
                "POST",
                "/",
                null,
                Map.of("x-amz-target", "DynamoDB_20120810.TransactWriteItems"),
                ("{\"TransactItems\":[" + items + "]}").getBytes(StandardCharsets.UTF_8));
    }

    private FunctionInstance sandbox;

    /** A sandbox slot that never started a process: a kill only marks it, and the point's strike is what counts. */
    private FunctionInstance sandboxNeverStarted() {
        if (sandbox == null) {
            sandbox = sandboxNeverStarted("checkout");
        }
        return sandbox;
    }

    /** Another such slot, whose files are named {@code name}; a kill marks it {@link FunctionInstance#doomed}. */
    private FunctionInstance sandboxNeverStarted(String name) {
        SandboxSpec spec = new SandboxSpec(
                CheckoutNames.CHECKOUT,
                "arn:aws:lambda:us-east-1:000000000000:function:checkout",
                new FunctionArtifact("native", dir.resolve("bootstrap"), ""),
                128,
                Map.of());
        return new FunctionInstance(
                spec,
                1,
                ManagedJavaRuntime.unpackInto(dir.resolve("run-" + name)),
                dir.resolve(name + ".log"),
                e -> {});
    }
}
