package dev.redrive.testing.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.testing.Attributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link ReplaySender}, for the recording fake and SQS. A subclass makes queues and says what arrived
 * in them.
 */
public abstract class ReplaySenderContract {

    /** One message as it arrived in a queue, every attribute with its type. */
    public record Received(String messageId, String body, Map<String, MessageAttribute> attributes) {}

    protected ReplaySender sender;

    protected abstract ReplaySender newSender();

    /** A new, empty queue; returns its name. */
    protected abstract String newQueue();

    /** Every message that arrived in {@code queue} so far. */
    protected abstract List<Received> received(String queue);

    @BeforeEach
    void setUp() {
        sender = newSender();
    }

    @Test
    void aSentMessageArrivesWithItsBodyAndAttributesUnderTheIdReturned() {
        String queue = newQueue();
        Map<String, MessageAttribute> attributes = Map.of(
                ReplayMarker.ATTRIBUTE,
                MessageAttribute.ofString("q-1:1"),
                "traceparent",
                MessageAttribute.ofString("00-abc-def-01"));

        String id = sender.send(queue, "{\"orderId\":\"o-1\"}", attributes);

        assertThat(received(queue)).containsExactly(new Received(id, "{\"orderId\":\"o-1\"}", attributes));
    }

    @Test
    void sendAllSendsMoreThanOneBatchAndReturnsEachIdInOrder() {
        String queue = newQueue();
        List<ReplaySender.Outgoing> messages = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            messages.add(new ReplaySender.Outgoing(
                    "body-" + i, Map.of(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-" + i + ":1"))));
        }

        List<String> ids = sender.sendAll(queue, messages);

        assertThat(ids).hasSize(23).doesNotContainNull();
        assertThat(new HashSet<>(ids)).hasSize(23);
        List<Received> arrived = received(queue);
        assertThat(arrived).hasSize(23);
        for (Received r : arrived) {
            int i = ids.indexOf(r.messageId());
            assertThat(r.body())
                    .as("the id at position " + i + " is that message's")
                    .isEqualTo("body-" + i);
            assertThat(r.attributes())
                    .containsEntry(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-" + i + ":1"));
        }
    }

    /** A replay is the original: String, Number and Binary attributes, custom types included, each with its type. */
    @Test
    void everyAttributeArrivesWithItsType() {
        String queue = newQueue();
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>(Attributes.everyType());
        attributes.put(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-1:1"));

        String one = sender.send(queue, "{\"orderId\":\"o-1\"}", attributes);
        String two = sender.sendAll(queue, List.of(new ReplaySender.Outgoing("{\"orderId\":\"o-2\"}", attributes)))
                .get(0);

        assertThat(received(queue))
                .containsExactlyInAnyOrder(
                        new Received(one, "{\"orderId\":\"o-1\"}", attributes),
                        new Received(two, "{\"orderId\":\"o-2\"}", attributes));
    }

    @Test
    void nothingToSendSendsNothing() {
        String queue = newQueue();

        assertThat(sender.sendAll(queue, List.of())).isEmpty();
        assertThat(received(queue)).isEmpty();
    }

    @Test
    void messagesGoToTheQueueTheyAreSentTo() {
        String one = newQueue();
        String two = newQueue();

        sender.send(one, "to one", Map.of());
        sender.sendAll(two, List.of(new ReplaySender.Outgoing("to two", Map.of())));

        assertThat(received(one)).extracting(Received::body).containsExactly("to one");
        assertThat(received(two)).extracting(Received::body).containsExactly("to two");
    }
}
