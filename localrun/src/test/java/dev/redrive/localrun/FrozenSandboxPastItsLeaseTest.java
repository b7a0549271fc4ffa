package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.localrun.chaos.Chaos;
import dev.redrive.localrun.chaos.ChaosOptions;
import dev.redrive.localrun.chaos.FaultKind;
import dev.redrive.localrun.chaos.FaultPlan;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localrun.scenario.Observer;
import dev.redrive.localrun.scenario.OrderTraffic;
import dev.redrive.localstack.LocalAws;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Issue 12, item 1, on the packaged functions: a worker frozen in the middle of its work past its lease must not
 * apply its effect when it wakes up. The email consumer's sandbox A claims an order (token 1); the answer to its claim
 * is held back, so the record is still in A's hands when A's handler gives up on it at its deadline and answers; A is
 * then frozen (SIGSTOP, as Lambda freezes an environment that has answered) with its claim's answer waiting in its
 * socket. The order comes back (a 3 s visibility timeout here), sandbox B takes over once A's lease has ended (token 2)
 * and sends the email. Then A is thawed (SIGCONT): its worker thread reads the claim's answer and is stale.
 */
class FrozenSandboxPastItsLeaseTest {

    static LocalSystem system;
    static Chaos chaos;

    @BeforeAll
    static void start() throws Exception {
        Path work = Files.createDirectories(ChaosStack.ROOT.resolve("localrun/target/frozen-sandbox-test"));
        long seed = 12;
        RunOptions options = ChaosStack.options(1, ChaosOptions.defaults(seed).withPlan(FaultPlan.none(seed)), work);
        LocalAws aws = LocalAws.shared();
        aws.reset();
        system = LocalSystem.start(options, ChaosStack.quiet(), aws, false);
        chaos = system.chaos().orElseThrow();
    }

    @AfterAll
    static void stop() {
        if (system != null) {
            system.close();
        }
    }

    @Test
    void aSandboxFrozenPastItsLeaseWhileAnotherAppliesTheEffectAppliesNothingWhenThawed() {
        String queue = system.sourceQueueUrl(LocalSystem.EMAIL);
        // B's deliveries while A holds the claim are deferred, each a receive: with 4 receives before the DLQ the
        // order would be dead-lettered before A's lease ends. Room for them, so that B gets to take over.
        String redrive = system.aws()
                .sqs()
                .getQueueAttributes(b -> b.queueUrl(queue).attributeNames(QueueAttributeName.REDRIVE_POLICY))
                .attributes()
                .get(QueueAttributeName.REDRIVE_POLICY)
                .replaceAll("\"maxReceiveCount\"\\s*:\\s*\"?\\d+\"?", "\"maxReceiveCount\":50");
        system.aws()
                .sqs()
                .setQueueAttributes(b -> b.queueUrl(queue)
                        .attributes(Map.of(
                                QueueAttributeName.VISIBILITY_TIMEOUT,
                                "3",
                                QueueAttributeName.REDRIVE_POLICY,
                                redrive)));
        assertThat(redrive).contains("\"maxReceiveCount\":50");
        OrderTraffic traffic = new OrderTraffic(system.aws().sqs(), 12);
        OrderTraffic.Order order = traffic.newOrders(1, 0, "frozen").get(0);
        String key = LocalSystem.EMAIL + "#" + order.eventId();
        String email = S3EmailOutbox.objectKey(key);
        Observer observer = new Observer(system);
        chaos.pauseNextClaimOf(key);

        traffic.send(List.of(order), List.of(queue));

        FunctionInstance frozen = await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(200))
                .failFast(system::failIfBroken)
                .until(
                        () -> system.pool(LocalSystem.EMAIL).sandboxes().stream()
                                .filter(FunctionInstance::frozen)
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
        assertThat(chaos.faults().total(FaultKind.SANDBOX_PAUSE)).isEqualTo(1);

        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .failFast(system::failIfBroken)
                .until(() -> "COMPLETED".equals(observer.claimStatus(key)));
        assertThat(observer.emailWritesPerKey()).as("B sent the email").containsEntry(email, 1);
        assertThat(frozen.frozen())
                .as("A stayed frozen while B took over and applied")
                .isTrue();
        assertThat(observer.claimsByKey().get(key).fencingToken())
                .as("B's token")
                .isEqualTo(2);

        frozen.thaw();

        // Whatever the stale worker does now, the downstream counts one email, and nothing it sends is taken.
        await().during(Duration.ofSeconds(8))
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> observer.emailWritesPerKey().getOrDefault(email, 0) == 1
                        && chaos.journal().staleAccepted().isEmpty()
                        && chaos.journal().lateEffectCalls().isEmpty());
        assertThat(observer.emailWritesPerKey()).containsEntry(email, 1);
        assertThat(chaos.journal().staleAccepted())
                .as("effects accepted from a stale token")
                .isEmpty();
        assertThat(chaos.journal().lateEffectCalls())
                .as("effect calls that reached the mail provider after their lease (rule 3: no effect may start "
                        + "after its lease)")
                .isEmpty();
    }
}
