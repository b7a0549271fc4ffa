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
        assertViolation("{\"order\":{\"id\":\"o-1\"}} trailing", "TrailingTokens");
        assertViolation("{\"order\":{\"id\":42}}", "MissingKey");
        assertViolation("{\"order\":{}}", "MissingKey");
        assertViolation("{\"order\":{\"id\":\"has space\"}}", "InvalidKey");
        assertViolation("{\"order\":{\"id\":\"\"}}", "InvalidKey");
    }

    /**
     * The consumer's reading must be the sweeper's and the CLI's ({@code redrive-schema}'s {@code StrictJson}): a
     * message the consumer applied and the sweeper cannot read would leave its dead-lettered copies unreplayable.
     */
    @Test
    void whatTheSweepersStrictReadingRefusesTheConsumerRefusesForTheSameReason() {
        assertViolation("{\"order\":{\"id\":\"o-1\"},\"note\":\"\\ud800\"}", "LoneSurrogate");
        assertViolation("{\"order\":{\"id\":\"o-1\",\"id\":\"o-2\"}}", "DuplicateKey");
        assertViolation("[1,2]", "NotAJsonObject");
        assertViolation("{\"order\":{\"id\":\"o-1\"},\"n\":" + "9".repeat(65) + "}", "ExceedsLimits");
        assertViolation("{\"order\":{\"id\":\"o-1\"},\"deep\":" + "[".repeat(70) + "]".repeat(70) + "}", "TooDeep");
    }

    /**
     * The canonical payload is the claim's fingerprint: the sweeper checks a replay against it with {@code
     * redrive-schema}'s {@code CanonicalJson}, so the consumer's must be the same string for every body.
     */
    @Test
    void theCanonicalPayloadIsTheOneTheSweeperFingerprints() {
        for (String body : java.util.List.of(
                "{\"order\":{\"id\":\"o-1\"},\"a\":1.10,\"b\":1E2,\"c\":12345678901234567890123}",
                "{\"order\":{\"id\":\"o-1\"},\"amount\":0.1,\"neg\":-0.0,\"big\":1.2345678901234567890123}",
                "{\"order\":{\"id\":\"o-1\"},\"e\":\"\\u00e9\\n\",\"f\":[{\"y\":1,\"x\":2}],\"g\":null}")) {
            String sweepers = dev.redrive.schema.CanonicalJson.of(
                    new dev.redrive.schema.StrictJson(java.util.Set.of()).readObject(body));

            assertThat(reader.read(message(body)).canonicalPayload()).as(body).isEqualTo(sweepers);
        }
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
