package dev.redrive.testing.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.PayloadStore;
import dev.redrive.testing.Records;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contract of {@link PayloadStore}, for the in-memory fake and S3. */
public abstract class PayloadStoreContract {

    protected PayloadStore store;

    /** A store over an empty place (a fresh bucket). */
    protected abstract PayloadStore newStore();

    @BeforeEach
    void setUp() {
        store = newStore();
    }

    protected static String id() {
        return "q-" + UUID.randomUUID();
    }

    @Test
    void aStoredPayloadIsReadBackByItsReferenceByteForByte() {
        String body = "{\"note\":\"grüße, 注文, emoji 📦\"}" + "x".repeat(300_000);
        String id = id();

        String ref = store.put(id, body);

        assertThat(ref).isNotBlank().contains(id);
        assertThat(store.get(ref)).isEqualTo(body);
    }

    @Test
    void storingAgainForTheSameDeadLetterReplacesItUnderTheSameReference() {
        String id = id();
        String first = store.put(id, "{\"v\":1}");
        String second = store.put(id, "{\"v\":2}");

        assertThat(second).isEqualTo(first);
        assertThat(store.get(second)).isEqualTo("{\"v\":2}");
    }

    @Test
    void payloadsOfTwoDeadLettersAreKeptApart() {
        String a = store.put(id(), "a");
        String b = store.put(id(), "b");

        assertThat(a).isNotEqualTo(b);
        assertThat(store.get(a)).isEqualTo("a");
        assertThat(store.get(b)).isEqualTo("b");
    }

    @Test
    void anUpcastVersionOfAPayloadIsKeptApartFromTheOriginal() {
        String id = id();
        String original = store.put(id, "v1:old");
        String upcast = store.put(id + "/v2", "old");

        assertThat(upcast).isNotEqualTo(original).contains(id);
        assertThat(store.get(original)).isEqualTo("v1:old");
        assertThat(store.get(upcast)).isEqualTo("old");
    }

    @Test
    void readingAReferenceNothingWasStoredUnderFails() {
        assertThatThrownBy(() -> store.get("bodies/" + id())).isInstanceOf(RuntimeException.class);
    }

    @Test
    void aRecordsPayloadIsItsInlineBodyElseTheStoredOneElseNone() {
        String id = id();
        String ref = store.put(id, "aside");
        QuarantineRecord inline = Records.quarantined(id, "orders", "inline");

        assertThat(store.bodyOf(inline)).contains("inline");
        assertThat(store.bodyOf(Records.storedAside(inline, ref))).contains("aside");
        assertThat(store.bodyOf(inline.tombstone("archive/1.jsonl.gz"))).isEmpty();
    }
}
