package dev.redrive.core.sweeper;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.redriven;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An archive run holds at most one object's payloads per day: with 1,000 records of up to 1 MiB a state, one object
 * per day gzipped whole in memory would not fit a 256 MB sweeper.
 */
class ArchiveObjectBoundTest {

    final SweeperFixture f = new SweeperFixture();

    @Test
    void anArchiveRunWritesAnotherObjectOnceAnObjectHoldsItsBoundOfPayloadCharacters() {
        long bound = 2_500;
        Sweeper bounded = f.sweeper(new SweeperSettings(Duration.ofDays(7), 100, 1_000, 100, bound));
        for (int i = 0; i < 5; i++) {
            f.dlq.add(ROUTE.deadLetterQueue(), redriven(i + "|" + "x".repeat(898), 4));
        }
        bounded.sweep(ROUTE, "test", Duration.ofMinutes(5), () -> true);
        f.clock.advance(Duration.ofDays(8));

        SweepReport report = bounded.sweep(ROUTE, "test", Duration.ofMinutes(5), () -> true);

        Map<String, List<ArchiveStore.Entry>> objects = f.archive.objects();
        assertThat(report.archivedToStoreCount()).isEqualTo(5);
        assertThat(objects)
                .as("900-character payloads, 2,500 per object: 3 + 2")
                .hasSize(2);
        assertThat(objects.values()).extracting(List::size).containsExactlyInAnyOrder(3, 2);
        for (Map.Entry<String, List<ArchiveStore.Entry>> object : objects.entrySet()) {
            List<ArchiveStore.Entry> entries = object.getValue();
            long beforeTheLast = entries.subList(0, entries.size() - 1).stream()
                    .mapToLong(e -> e.body().length())
                    .sum();
            assertThat(beforeTheLast)
                    .as("an object is written as soon as it reaches the bound")
                    .isLessThan(bound);
            for (ArchiveStore.Entry e : entries) {
                QuarantineRecord tombstone = f.ledger.find(e.record().id()).orElseThrow();
                assertThat(tombstone.archivedToStore()).isTrue();
                assertThat(tombstone.archiveRef()).isEqualTo(object.getKey());
            }
        }
    }
}
