package dev.redrive.localrun.eventsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The relay mapping's filter as the template writes it, and the rules it refuses to read differently than AWS. */
class EventFilterTest {

    static final String RELAY =
            "{\"eventName\":[\"INSERT\"],\"dynamodb\":{\"Keys\":{\"sk\":{\"S\":" + "[{\"prefix\":\"outbox#\"}]}}}}";
    final ObjectMapper json = new ObjectMapper();

    JsonNode record(String eventName, String sk) throws Exception {
        return json.readTree("{\"eventName\":\"" + eventName + "\",\"dynamodb\":{\"Keys\":{\"pk\":{\"S\":\"order#1\"},"
                + "\"sk\":{\"S\":\"" + sk + "\"}}}}");
    }

    @Test
    void theRelaysFilterDeliversOnlyOutboxInserts() throws Exception {
        EventFilter filter = EventFilter.of(List.of(RELAY));

        assertThat(filter.matches(record("INSERT", "outbox#000001"))).isTrue();
        assertThat(filter.matches(record("MODIFY", "outbox#000001")))
                .as("a mark")
                .isFalse();
        assertThat(filter.matches(record("INSERT", "order")))
                .as("the order item")
                .isFalse();
        assertThat(filter.matches(record("INSERT", "line#sku-1"))).isFalse();
        assertThat(filter.matches(json.readTree("{\"eventName\":\"INSERT\"}")))
                .as("no keys")
                .isFalse();
    }

    @Test
    void anyPatternMatchingIsEnoughAndNoPatternDeliversAll() throws Exception {
        EventFilter either = EventFilter.of(List.of("{\"eventName\":[\"REMOVE\"]}", RELAY));

        assertThat(either.matches(record("REMOVE", "order"))).isTrue();
        assertThat(either.matches(record("INSERT", "outbox#1"))).isTrue();
        assertThat(either.matches(record("MODIFY", "outbox#1"))).isFalse();
        assertThat(EventFilter.of(List.of()).matches(record("MODIFY", "x"))).isTrue();
    }

    @Test
    void existsAndAnythingButAndNumbersCompareAsAwsDoes() throws Exception {
        JsonNode r = json.readTree("{\"eventName\":\"MODIFY\",\"n\":10.0}");

        assertThat(EventFilter.of(List.of("{\"n\":[10]}")).matches(r)).isTrue();
        assertThat(EventFilter.of(List.of("{\"gone\":[{\"exists\":false}]}")).matches(r))
                .isTrue();
        assertThat(EventFilter.of(List.of("{\"n\":[{\"exists\":true}]}")).matches(r))
                .isTrue();
        assertThat(EventFilter.of(List.of("{\"eventName\":[{\"anything-but\":[\"INSERT\",\"REMOVE\"]}]}"))
                        .matches(r))
                .isTrue();
        assertThat(EventFilter.of(List.of("{\"eventName\":[{\"anything-but\":\"MODIFY\"}]}"))
                        .matches(r))
                .isFalse();
    }

    @Test
    void aRuleNotRunLocallyIsRefusedByName() {
        assertThatThrownBy(() -> EventFilter.of(List.of("{\"n\":[{\"numeric\":[\">\",0]}]}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("{\"numeric\":[\">\",0]}")
                .hasMessageContaining("$.n");
        assertThatThrownBy(() -> EventFilter.of(List.of("{\"n\":\"INSERT\"}")))
                .hasMessageContaining("must be an object or a list of rules");
        assertThatThrownBy(() -> EventFilter.of(List.of("not json"))).hasMessageContaining("not JSON");
    }
}
