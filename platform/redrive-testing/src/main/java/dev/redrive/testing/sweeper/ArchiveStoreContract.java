package dev.redrive.testing.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.sweeper.ArchiveStore;
import dev.redrive.testing.Attributes;
import dev.redrive.testing.Records;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link ArchiveStore}, for the in-memory fake and S3. A subclass reads an object back as the lines it
 * holds, so the suite can check what was archived.
 */
public abstract class ArchiveStoreContract {

    /**
     * What one archived line says, as far as the contract cares.
     *
     * @param claimCheck the pointer the dead letter came as, or null when it came with its payload
     */
    public record ArchivedLine(
            String quarantineId, String state, String payload, String reason, int auditEntries, String claimCheck) {
        public ArchivedLine(String quarantineId, String state, String payload, String reason, int auditEntries) {
            this(quarantineId, state, payload, reason, auditEntries, null);
        }
    }

    protected ArchiveStore store;
    protected String queue;

    protected abstract ArchiveStore newStore();

    /** The lines of the object {@code ref}, in the order written. */
    protected abstract List<ArchivedLine> read(String ref);

    /** The attributes each line of the object {@code ref} holds, with their types, in the order written. */
    protected abstract List<Map<String, MessageAttribute>> attributesOf(String ref);

    @BeforeEach
    void setUp() {
        store = newStore();
        queue = "orders-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private ArchiveStore.Entry entry(String body, String reason) {
        String id = "q-" + UUID.randomUUID();
        QuarantineRecord r = Records.quarantined(id, queue, body)
                .moveTo(QuarantineState.ARCHIVED, Actor.person("ada"), reason, Records.ARRIVED.plusSeconds(5));
        return new ArchiveStore.Entry(r, body, reason);
    }

    @Test
    void aClaimCheckIsArchivedWithItsWholePayloadAndThePointerItCameAs() {
        String pointer =
                "[\"software.amazon.payloadoffloading.PayloadS3Pointer\",{\"s3BucketName\":\"b\",\"s3Key\":\"k\"}]";
        String payload = "{\"big\":\"" + "x".repeat(100_000) + "\"}";
        QuarantineRecord r = Records.quarantined("q-" + UUID.randomUUID(), queue, pointer)
                .moveTo(QuarantineState.ARCHIVED, Actor.person("ada"), "done", Records.ARRIVED.plusSeconds(5));

        String ref = store.write(
                queue, LocalDate.of(2026, 12, 3), List.of(new ArchiveStore.Entry(r, payload, "done", pointer)));

        assertThat(read(ref))
                .singleElement()
                .isEqualTo(new ArchivedLine(r.id(), "ARCHIVED", payload, "done", 2, pointer));
    }

    @Test
    void oneObjectHoldsEveryEntryInOrderWithPayloadReasonAndAuditTrail() {
        List<ArchiveStore.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            entries.add(entry("{\"n\":" + i + ",\"text\":\"line\\nbreak\"}", "reason " + i));
        }
        LocalDate day = LocalDate.of(2026, 11, 29);

        String ref = store.write(queue, day, entries);

        assertThat(ref).startsWith("archive/queue=" + queue + "/date=2026-11-29/");
        List<ArchivedLine> lines = read(ref);
        assertThat(lines).hasSize(25);
        for (int i = 0; i < 25; i++) {
            ArchiveStore.Entry e = entries.get(i);
            assertThat(lines.get(i))
                    .isEqualTo(new ArchivedLine(e.record().id(), "ARCHIVED", e.body(), "reason " + i, 2));
        }
    }

    @Test
    void everyAttributeIsArchivedWithItsType() {
        Map<String, MessageAttribute> attributes = Attributes.everyType();
        ArchiveStore.Entry typed = entry("{}", "done");
        ArchiveStore.Entry plain = entry("{}", "done");
        typed = new ArchiveStore.Entry(typed.record().withAttributes(attributes), "{}", "done");

        String ref = store.write(queue, LocalDate.of(2026, 12, 4), List.of(typed, plain));

        assertThat(attributesOf(ref)).containsExactly(attributes, Map.of("trace", MessageAttribute.ofString("t-1")));
    }

    @Test
    void everyWriteIsANewObjectEvenForTheSameQueueAndDay() {
        LocalDate day = LocalDate.of(2026, 11, 30);
        ArchiveStore.Entry first = entry("a", "first");
        ArchiveStore.Entry second = entry("b", "second");

        String a = store.write(queue, day, List.of(first));
        String b = store.write(queue, day, List.of(second));

        assertThat(a).isNotEqualTo(b);
        assertThat(read(a))
                .extracting(ArchivedLine::quarantineId)
                .containsExactly(first.record().id());
        assertThat(read(b))
                .extracting(ArchivedLine::quarantineId)
                .containsExactly(second.record().id());
    }

    @Test
    void queuesAndDaysArePartitionedApart() {
        String other = queue + "-other";

        String one = store.write(queue, LocalDate.of(2026, 1, 1), List.of(entry("a", "r")));
        String two = store.write(other, LocalDate.of(2026, 1, 2), List.of(entry("b", "r")));

        assertThat(one).startsWith("archive/queue=" + queue + "/date=2026-01-01/");
        assertThat(two).startsWith("archive/queue=" + other + "/date=2026-01-02/");
    }
}
