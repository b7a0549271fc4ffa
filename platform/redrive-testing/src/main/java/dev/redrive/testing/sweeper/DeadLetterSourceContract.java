package dev.redrive.testing.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.DeadLetterSource.QueueDepth;
import dev.redrive.testing.Attributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link DeadLetterSource}, for the in-memory fake and SQS. A subclass makes dead-letter queues, puts
 * messages in them, and waits out the visibility timeout of what was received and not deleted.
 */
public abstract class DeadLetterSourceContract {

    protected DeadLetterSource source;

    protected abstract DeadLetterSource newSource();

    /** A new, empty dead-letter queue; returns its name. */
    protected abstract String newDeadLetterQueue();

    /** A message arrives in {@code queue}, carrying {@code marker} when it is a replay that came back. */
    protected abstract void arrive(
            String queue, String body, Map<String, MessageAttribute> attributes, Optional<ReplayMarker> marker);

    /** Receives from {@code queue} once the letters received and not deleted are visible again. */
    protected abstract List<ArrivedDeadLetter> receiveAfterTheVisibilityTimeout(String queue);

    @BeforeEach
    void setUp() {
        source = newSource();
    }

    private List<ArrivedDeadLetter> receiveAll(String queue) {
        List<ArrivedDeadLetter> all = new ArrayList<>();
        List<ArrivedDeadLetter> batch;
        while (!(batch = source.receive(queue)).isEmpty()) {
            assertThat(batch).as("one receive").hasSizeLessThanOrEqualTo(10);
            all.addAll(batch);
        }
        return all;
    }

    @Test
    void lettersAreReceivedTenAtATimeEachOnceWithTheirBodyAndAttributes() {
        String queue = newDeadLetterQueue();
        for (int i = 0; i < 23; i++) {
            arrive(queue, "body-" + i, Map.of("trace", MessageAttribute.ofString("t-" + i)), Optional.empty());
        }

        List<ArrivedDeadLetter> all = receiveAll(queue);

        assertThat(all).hasSize(23);
        Set<String> bodies = new HashSet<>();
        for (ArrivedDeadLetter l : all) {
            bodies.add(l.body());
            String n = l.body().substring("body-".length());
            assertThat(l.attributes()).isEqualTo(Map.of("trace", MessageAttribute.ofString("t-" + n)));
            assertThat(l.receiptHandle()).isNotBlank();
            assertThat(l.receiveCount()).isPositive();
            assertThat(l.sentAt()).isNotNull();
            assertThat(l.replay()).isEmpty();
        }
        assertThat(bodies).hasSize(23);
        assertThat(source.receive(queue)).isEmpty();
    }

    @Test
    void aReplayThatCameBackCarriesItsMarkerOutsideItsAttributes() {
        String queue = newDeadLetterQueue();
        arrive(
                queue,
                "replayed",
                Map.of("trace", MessageAttribute.ofString("t")),
                Optional.of(new ReplayMarker("q-42", 3)));

        ArrivedDeadLetter letter = source.receive(queue).get(0);

        assertThat(letter.replay()).contains(new ReplayMarker("q-42", 3));
        assertThat(letter.attributes()).isEqualTo(Map.of("trace", MessageAttribute.ofString("t")));
    }

    /** The original as it was sent: String, Number and Binary attributes, custom types included, each with its type. */
    @Test
    void everyAttributeArrivesWithItsType() {
        String queue = newDeadLetterQueue();
        Map<String, MessageAttribute> attributes = Attributes.everyType();
        arrive(queue, "{}", attributes, Optional.empty());

        ArrivedDeadLetter letter = source.receive(queue).get(0);

        assertThat(letter.attributes()).isEqualTo(attributes);
        assertThat(letter.stringAttributes())
                .as("what a consumer reads: the text of String and Number attributes")
                .isEqualTo(Map.of("trace", "t-1", "price", "12.50", "ratio", "0.25"));
    }

    @Test
    void theDepthCountsWaitingAndReceivedLettersApart() {
        String queue = newDeadLetterQueue();
        for (int i = 0; i < 3; i++) {
            arrive(queue, "body-" + i, Map.of(), Optional.empty());
        }
        assertThat(source.approximateDepth(queue)).isEqualTo(new QueueDepth(3, 0, 0));

        List<ArrivedDeadLetter> received = receiveAll(queue);
        assertThat(source.approximateDepth(queue)).isEqualTo(new QueueDepth(0, 3, 0));

        source.delete(queue, received.subList(0, 2));
        assertThat(source.approximateDepth(queue)).isEqualTo(new QueueDepth(0, 1, 0));
    }

    @Test
    void deletedLettersNeverComeBackAndUndeletedOnesDo() {
        String queue = newDeadLetterQueue();
        for (int i = 0; i < 3; i++) {
            arrive(queue, "body-" + i, Map.of(), Optional.empty());
        }
        List<ArrivedDeadLetter> received = receiveAll(queue);
        assertThat(received).hasSize(3);

        source.delete(queue, received.subList(0, 2));
        List<ArrivedDeadLetter> back = receiveAfterTheVisibilityTimeout(queue);

        assertThat(back)
                .extracting(ArrivedDeadLetter::body)
                .containsExactly(received.get(2).body());
    }

    @Test
    void deletingMoreThanOneBatchEmptiesTheQueueAndDeletingAgainChangesNothing() {
        String queue = newDeadLetterQueue();
        for (int i = 0; i < 23; i++) {
            arrive(queue, "body-" + i, Map.of(), Optional.empty());
        }
        List<ArrivedDeadLetter> received = receiveAll(queue);

        source.delete(queue, received);
        source.delete(queue, received);
        source.delete(queue, List.of());

        assertThat(source.approximateDepth(queue)).isEqualTo(new QueueDepth(0, 0, 0));
        assertThat(source.receive(queue)).isEmpty();
    }

    @Test
    void anEmptyQueueGivesNothing() {
        String queue = newDeadLetterQueue();

        assertThat(source.receive(queue)).isEmpty();
        assertThat(source.approximateDepth(queue)).isEqualTo(new QueueDepth(0, 0, 0));
    }
}
