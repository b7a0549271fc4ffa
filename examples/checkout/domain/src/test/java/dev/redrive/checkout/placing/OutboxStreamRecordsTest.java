package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A stream batch of the orders table as Lambda delivers it (fixture in the documented event format). */
class OutboxStreamRecordsTest {

    @Test
    void onlyOutboxInsertsAreEventsAndAnUnreadableOneIsNamedNotDropped() throws Exception {
        Map<String, Object> batch;
        try (InputStream in = getClass().getResourceAsStream("/streams/orders-table-batch.json")) {
            batch = new ObjectMapper().readValue(in, new TypeReference<>() {});
        }

        List<OutboxStreamRecords.Record> records = OutboxStreamRecords.read(batch);

        assertThat(records)
                .extracting(OutboxStreamRecords.Record::sequenceNumber)
                .containsExactly("111", "222", "333", "444");
        assertThat(records.get(0).event()).as("an attempt").isEmpty();
        assertThat(records.get(1).event())
                .contains(new OutboxEvent(
                        "o-1",
                        1,
                        "evt-o-1-1",
                        "OrderPlaced",
                        "{\"eventType\":\"OrderPlaced\",\"version\":2}",
                        Instant.ofEpochMilli(1764842400456L)));
        assertThat(records.get(2).event()).as("the mark of publication").isEmpty();
        assertThat(records.get(2).unreadable()).isNull();
        assertThat(records.get(3).event()).isEqualTo(Optional.empty());
        assertThat(records.get(3).unreadable())
                .isEqualTo("the outbox item outbox#0000000001 cannot be read: sequence is missing or not a number");
    }

    @Test
    void anEmptyOrForeignEventHasNoRecords() {
        assertThat(OutboxStreamRecords.read(Map.of())).isEmpty();
        assertThat(OutboxStreamRecords.read(null)).isEmpty();
    }
}
