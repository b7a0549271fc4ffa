package dev.redrive.core.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.sweeper.DeadLetterNotes.NoteKey;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A note's key tells dead letters apart by everything SQS keeps of them, and by nothing else. */
class NoteKeyTest {

    /** The same two attributes, put in the order given. */
    static Map<String, MessageAttribute> attributes(boolean stringFirst) {
        Map<String, MessageAttribute> a = new LinkedHashMap<>();
        if (stringFirst) {
            a.put("a", MessageAttribute.ofString("v-1"));
        }
        a.put("b", new MessageAttribute("Binary", null, new byte[] {1, 2}));
        a.put("a", MessageAttribute.ofString("v-1"));
        return a;
    }

    @Test
    void theSameMessageHasTheSameKeyWhateverTheOrderOfItsAttributes() {
        assertThat(NoteKey.of("dlq", "{}", attributes(true))).isEqualTo(NoteKey.of("dlq", "{}", attributes(false)));
    }

    @Test
    void anyDifferenceInBodyNameTypeOrValueIsAnotherKey() {
        NoteKey key = NoteKey.of("dlq", "{}", Map.of("a", MessageAttribute.ofString("1")));

        assertThat(key.fingerprint()).hasSize(64);
        assertThat(NoteKey.of("dlq", "{ }", Map.of("a", MessageAttribute.ofString("1"))))
                .isNotEqualTo(key);
        assertThat(NoteKey.of("dlq", "{}", Map.of("b", MessageAttribute.ofString("1"))))
                .isNotEqualTo(key);
        assertThat(NoteKey.of("dlq", "{}", Map.of("a", MessageAttribute.ofNumber("1"))))
                .isNotEqualTo(key);
        assertThat(NoteKey.of("dlq", "{}", Map.of("a", MessageAttribute.ofString("2"))))
                .isNotEqualTo(key);
        assertThat(NoteKey.of("dlq", "{}", Map.of("a", new MessageAttribute("String", null, new byte[] {'1'}))))
                .isNotEqualTo(key);
        assertThat(NoteKey.of("dlq", "{}", Map.of())).isNotEqualTo(key);
        assertThat(NoteKey.of("other-dlq", "{}", Map.of("a", MessageAttribute.ofString("1"))))
                .isNotEqualTo(key);
    }

    @Test
    void fieldsCannotRunIntoEachOther() {
        assertThat(NoteKey.of("dlq", "ab", Map.of("c", MessageAttribute.ofString("d"))))
                .isNotEqualTo(NoteKey.of("dlq", "a", Map.of("bc", MessageAttribute.ofString("d"))));
    }
}
