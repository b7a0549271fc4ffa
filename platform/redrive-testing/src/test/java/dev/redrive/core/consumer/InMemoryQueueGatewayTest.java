package dev.redrive.core.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.QueueGateway.VisibilityChange;
import dev.redrive.testing.consumer.InMemoryQueueGateway;
import dev.redrive.testing.consumer.QueueGatewayContract;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The fake records calls instead of keeping queues: a message is receivable again when its last visibility change was
 * to zero, and a dead letter "arrives" when the fake records it.
 */
class InMemoryQueueGatewayTest extends QueueGatewayContract {
    private final InMemoryQueueGateway fake = new InMemoryQueueGateway();
    private final Map<String, IncomingMessage> delivered = new HashMap<>();

    @Override
    protected QueueGateway newGateway() {
        return fake;
    }

    @Override
    protected String newSourceQueue() {
        return "orders-" + UUID.randomUUID();
    }

    @Override
    protected List<IncomingMessage> deliver(String queue, int n) {
        List<IncomingMessage> messages = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = UUID.randomUUID().toString();
            IncomingMessage m =
                    new IncomingMessage(id, "rh-" + id, "body-" + i, Map.of("trace", "t-" + i), 1, queue, null);
            delivered.put(id, m);
            messages.add(m);
        }
        return messages;
    }

    @Override
    protected Set<String> receivableNow(String queue) {
        Map<String, Integer> last = new HashMap<>();
        fake.visibilityCalls().forEach(call -> call.forEach(c -> last.put(c.messageId(), c.timeoutSeconds())));
        Set<String> bodies = new HashSet<>();
        last.forEach((id, seconds) -> {
            IncomingMessage m = delivered.get(id);
            if (seconds == 0 && m != null && m.sourceQueue().equals(queue)) {
                bodies.add(m.body());
            }
        });
        return bodies;
    }

    @Override
    protected List<Arrived> deadLettersOf(String sourceQueue) {
        return fake.deadLetters().stream()
                .filter(d -> d.message().sourceQueue().equals(sourceQueue))
                .map(d -> new Arrived(
                        d.message().body(),
                        d.message().attributes(),
                        d.consumer(),
                        d.idempotencyKey(),
                        d.failure().failureClass(),
                        d.failure().classification().errorType()))
                .toList();
    }

    @Test
    void visibilityChangesAreRecordedInBatchesOfTen() {
        List<IncomingMessage> messages = deliver("orders", 23);

        fake.changeVisibility(
                "orders",
                messages.stream()
                        .map(m -> new VisibilityChange(m.messageId(), m.receiptHandle(), 5))
                        .toList());

        assertThat(fake.visibilityCalls()).extracting(List::size).containsExactly(10, 10, 3);
    }

    @Test
    void aSendToldToFailIsReportedAndTheOthersAreRecorded() {
        List<IncomingMessage> messages = deliver("orders", 2);
        fake.failDeadLetterSendsFor(messages.get(0).messageId());

        Set<String> failed = fake.deadLetter(
                "orders",
                messages.stream()
                        .map(m -> new QueueGateway.DeadLetter(m, "email", null, null))
                        .toList());

        assertThat(failed).containsExactly(messages.get(0).messageId());
        assertThat(fake.deadLetters())
                .extracting(d -> d.message().messageId())
                .containsExactly(messages.get(1).messageId());
    }
}
