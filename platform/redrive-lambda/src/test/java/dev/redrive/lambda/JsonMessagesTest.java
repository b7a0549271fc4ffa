package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonMessagesTest {

    final MessageReader<JsonNode> reader = JsonMessages.keyAt("/order/id");

    @Test
    void theKeyIsAtThePointerAndTheCanonicalPayloadHasItsKeysSorted() {
        ParsedMessage<JsonNode> m =
                reader.read(message("{\"z\":1, \"order\":{\"id\":\"o-1\",\"b\":[2,1]},\"a\":true}"));

        assertThat(m.producerKey()).isEqualTo("o-1");
        assertThat(m.canonicalPayload()).isEqualTo("{\"a\":true,\"order\":{\"b\":[2,1],\"id\":\"o-1\"},\"z\":1}");
        assertThat(reader.read(message("{\"a\":true,\"z\":1,\"order\":{\"b\":[2,1],\"id\":\"o-1\"}}"))
                        .canonicalPayload())
                .as("the same content in another order")
                .isEqualTo(m.canonicalPayload());
    }

    @Test
    void whatCannotBeReadIsASchemaViolationThatNamesTheProblemNotTheContent() {
        assertViolation("not json", "NotJson");
        assertViolation("{\"order\":{\"id\":\"o-1\"}} trailing", "NotJson");
        assertViolation("{\"order\":{\"id\":\"o-1\",\"id\":\"o-2\"}}", "NotJson");
        assertViolation("[1,2]", "NotJsonObject");
        assertViolation("{\"order\":{\"id\":42}}", "MissingKey");
        assertViolation("{\"order\":{}}", "MissingKey");
        assertViolation("{\"order\":{\"id\":\"has space\"}}", "InvalidKey");
        assertViolation("{\"order\":{\"id\":\"\"}}", "InvalidKey");
    }

    @Test
    void aPointerMustBeOne() {
        assertThatThrownBy(() -> JsonMessages.keyAt("eventId"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("starts with /");
    }

    private void assertViolation(String body, String errorType) {
        assertThatThrownBy(() -> reader.read(message(body))).isInstanceOfSatisfying(SchemaViolation.class, v -> {
            assertThat(v.errorType()).as(body).isEqualTo(errorType);
            assertThat(v.getMessage()).doesNotContain("o-1", "o-2", "has space");
        });
    }

    private static IncomingMessage message(String body) {
        return new IncomingMessage("m-1", "rh-1", body, Map.of(), 1, "q", null);
    }
}
