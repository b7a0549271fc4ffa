package dev.redrive.testing.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.QueueGateway;
import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.consumer.QueueGateway.VisibilityChange;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link QueueGateway}, for the in-memory fake and SQS. A subclass makes a source queue with its
 * dead-letter queue, delivers messages from it (received, so they are in flight), and says what is receivable again and
 * what arrived in the dead-letter queue.
 */
public abstract class QueueGatewayContract {

    /** A message as it arrived in the dead-letter queue, with the failure metadata it carries. */
    public record Arrived(
            String body,
            Map<String, String> attributes,
            String consumer,
            String idempotencyKey,
            FailureClass failureClass,
            String errorType) {}

    protected static final Instant FAILED_AT = Instant.parse("2026-11-29T12:00:00Z");

    protected QueueGateway gateway;

    protected abstract QueueGateway newGateway();

    /** A new source queue with its dead-letter queue; returns the source's name. */
    protected abstract String newSourceQueue();

    /** {@code n} messages ({@code body-0} ...) sent to {@code queue} and received, so each is in flight. */
    protected abstract List<IncomingMessage> deliver(String queue, int n);

    /** The bodies of the messages of {@code queue} that can be received right now. */
    protected abstract Set<String> receivableNow(String queue);

    /** What arrived in the dead-letter queue of {@code sourceQueue}. */
    protected abstract List<Arrived> deadLettersOf(String sourceQueue);

    @BeforeEach
    void setUp() {
        gateway = newGateway();
    }

    private static VisibilityChange change(IncomingMessage m, int seconds) {
        return new VisibilityChange(m.messageId(), m.receiptHandle(), seconds);
    }

    @Test
    void aVisibilityOfZeroMakesEveryMessageReceivableAgainAcrossSeveralBatches() {
        String queue = newSourceQueue();
        List<IncomingMessage> delivered = deliver(queue, 23);

        Set<String> failed = gateway.changeVisibility(
                queue, delivered.stream().map(m -> change(m, 0)).toList());

        assertThat(failed).isEmpty();
        assertThat(receivableNow(queue))
                .isEqualTo(delivered.stream().map(IncomingMessage::body).collect(Collectors.toSet()));
    }

    @Test
    void eachMessageGetsItsOwnVisibility() {
        String queue = newSourceQueue();
        List<IncomingMessage> delivered = deliver(queue, 6);
        List<VisibilityChange> changes = new ArrayList<>();
        for (int i = 0; i < delivered.size(); i++) {
            changes.add(change(delivered.get(i), i % 2 == 0 ? 0 : 600));
        }

        assertThat(gateway.changeVisibility(queue, changes)).isEmpty();

        assertThat(receivableNow(queue)).containsExactlyInAnyOrder("body-0", "body-2", "body-4");
    }

    @Test
    void deadLettersArriveUnchangedWithTheirFailureAcrossSeveralBatches() {
        String queue = newSourceQueue();
        List<IncomingMessage> delivered = deliver(queue, 12);
        List<DeadLetter> letters = new ArrayList<>();
        for (int i = 0; i < delivered.size(); i++) {
            FailureRecord failure = new FailureRecord(
                    Classification.of(FailureClass.PERMANENT, "Rule" + i, "refused"), 1, FAILED_AT, FAILED_AT, queue);
            letters.add(new DeadLetter(delivered.get(i), "email", i == 0 ? null : "email#k-" + i, failure));
        }

        Set<String> failed = gateway.deadLetter(queue, letters);

        assertThat(failed).isEmpty();
        List<Arrived> arrived = deadLettersOf(queue);
        assertThat(arrived).hasSize(12);
        for (int i = 0; i < delivered.size(); i++) {
            IncomingMessage m = delivered.get(i);
            assertThat(arrived)
                    .as("dead letter of " + m.body())
                    .contains(new Arrived(
                            m.body(),
                            m.attributes(),
                            "email",
                            i == 0 ? null : "email#k-" + i,
                            FailureClass.PERMANENT,
                            "Rule" + i));
        }
    }

    @Test
    void nothingToChangeOrSendFailsNothing() {
        String queue = newSourceQueue();

        assertThat(gateway.changeVisibility(queue, List.of())).isEmpty();
        assertThat(gateway.deadLetter(queue, List.of())).isEmpty();
        assertThat(deadLettersOf(queue)).isEmpty();
    }
}
