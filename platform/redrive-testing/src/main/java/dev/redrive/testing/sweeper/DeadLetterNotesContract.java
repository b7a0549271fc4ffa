package dev.redrive.testing.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.sweeper.ArrivedDeadLetter.AttachedFailure;
import dev.redrive.core.sweeper.DeadLetterNotes;
import dev.redrive.core.sweeper.DeadLetterNotes.NoteKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contract of {@link DeadLetterNotes}, for the in-memory fake and DynamoDB. */
public abstract class DeadLetterNotesContract {

    protected static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    protected static final Instant LATER = NOW.plus(Duration.ofDays(30));

    protected DeadLetterNotes notes;
    protected String queue;

    protected abstract DeadLetterNotes newNotes();

    @BeforeEach
    void setUp() {
        notes = newNotes();
        queue = "orders-dlq-" + UUID.randomUUID().toString().substring(0, 8);
    }

    protected static AttachedFailure failure(String errorType, String key) {
        return new AttachedFailure(
                "confirmation-email",
                key,
                "m-source-1",
                new FailureRecord(
                        new Classification(
                                FailureClass.PERMANENT, errorType, "order o-1 has \"no\" address\\n; refused", "mail"),
                        3,
                        NOW.minusMillis(61_234),
                        NOW.minusMillis(1_001),
                        "orders"));
    }

    protected NoteKey key(String body) {
        return NoteKey.of(queue, body, Map.of("attr-0", MessageAttribute.ofString("v-0")));
    }

    @Test
    void aNoteIsFoundWithEveryFieldAsKept() {
        AttachedFailure kept = failure("InvalidRecipient", "confirmation-email#e-1");

        notes.keep(key("{}"), kept, LATER);

        assertThat(notes.find(key("{}"), NOW)).contains(kept);
    }

    @Test
    void aNoteOfAMessageWithoutAKeyOrADependencyIsFoundAsKept() {
        AttachedFailure kept = new AttachedFailure(
                "revenue-analytics",
                null,
                "m-2",
                new FailureRecord(Classification.of(FailureClass.SCHEMA, "NotJson", ""), 1, NOW, NOW, "orders"));

        notes.keep(key("not json"), kept, LATER);

        assertThat(notes.find(key("not json"), NOW)).contains(kept);
    }

    @Test
    void nothingIsFoundForADeadLetterWithoutANote() {
        assertThat(notes.find(key("never kept"), NOW)).isEmpty();
    }

    @Test
    void aLaterNoteOfTheSameDeadLetterReplacesTheEarlierOne() {
        notes.keep(key("{}"), failure("First", null), LATER);
        notes.keep(key("{}"), failure("Second", null), LATER);

        assertThat(notes.find(key("{}"), NOW)
                        .orElseThrow()
                        .failure()
                        .classification()
                        .errorType())
                .isEqualTo("Second");
    }

    @Test
    void anExpiredNoteIsNotFound() {
        notes.keep(key("{}"), failure("Gone", null), NOW.plusSeconds(60));

        assertThat(notes.find(key("{}"), NOW)).isPresent();
        assertThat(notes.find(key("{}"), NOW.plusSeconds(61))).isEmpty();
    }

    @Test
    void notesOfAnotherQueueOrAnotherMessageAreApart() {
        notes.keep(key("{}"), failure("Here", null), LATER);

        NoteKey otherQueue = NoteKey.of(queue + "-other", "{}", Map.of("attr-0", MessageAttribute.ofString("v-0")));
        NoteKey otherAttribute = NoteKey.of(queue, "{}", Map.of("attr-0", MessageAttribute.ofString("v-1")));
        assertThat(notes.find(otherQueue, NOW)).isEmpty();
        assertThat(notes.find(otherAttribute, NOW)).isEmpty();
        assertThat(notes.find(key("{ }"), NOW)).isEmpty();
    }

    @Test
    void findAllReadsManyAtOnceAndLeavesOutThoseWithoutANote() {
        List<NoteKey> keys = new ArrayList<>();
        for (int i = 0; i < 130; i++) {
            keys.add(key("body-" + i));
            if (i % 2 == 0) {
                notes.keep(keys.get(i), failure("Rule" + i, null), LATER);
            }
        }
        notes.keep(key("expired"), failure("Old", null), NOW.minusSeconds(1));
        keys.add(key("expired"));

        Map<NoteKey, AttachedFailure> found = notes.findAll(keys, NOW);

        assertThat(found).hasSize(65);
        for (int i = 0; i < 130; i += 2) {
            assertThat(found.get(keys.get(i)).failure().classification().errorType())
                    .isEqualTo("Rule" + i);
        }
        assertThat(notes.findAll(List.of(), NOW)).isEmpty();
    }
}
