package dev.redrive.schema;

import static dev.redrive.schema.Fixtures.V1;
import static dev.redrive.schema.Fixtures.V2;
import static dev.redrive.schema.Fixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContractReaderTest {

    final ContractReader reader = Fixtures.routes().readers(List.of()).get("welcome-email");

    @Test
    void theCurrentVersionIsReadWithItsKeyAndCanonicalPayload() {
        ParsedMessage<JsonNode> read = reader.parse(message(V2));

        assertThat(read.producerKey()).isEqualTo("s-1");
        assertThat(read.event().at("/contact/email").asText()).isEqualTo("ada@example.com");
        assertThat(read.canonicalPayload())
                .isEqualTo("{\"contact\":{\"email\":\"ada@example.com\"},\"extra\":true,\"id\":\"s-1\",\"type\":"
                        + "\"Signup\",\"v\":2}");
    }

    @Test
    void anOlderVersionIsUpcastByTheDeclaredPatchToTheSameCanonicalPayload() {
        ParsedMessage<JsonNode> upcast = reader.parse(message(V1));

        assertThat(upcast.canonicalPayload())
                .isEqualTo(reader.parse(message(V2)).canonicalPayload());
        assertThat(upcast.event().get("email")).as("moved, not copied").isNull();
    }

    @Test
    void keyOrderAndLayoutDoNotChangeTheFingerprintedPayload() {
        String reordered = "{ \"extra\": true, \"contact\": {\"email\": \"ada@example.com\"}, \"id\": \"s-1\","
                + " \"v\": 2, \"type\": \"Signup\" }";

        assertThat(reader.parse(message(reordered)).canonicalPayload())
                .isEqualTo(reader.parse(message(V2)).canonicalPayload());
    }

    @Test
    void aReaderOfTheCurrentVersionOnlyRefusesAnOlderOneNamingTheVersions() {
        SchemaViolation v = catchThrowableOfType(
                SchemaViolation.class, () -> reader.readingCurrentOnly().parse(message(V1)));

        assertThat(v.errorType()).isEqualTo("OutdatedVersion");
        assertThat(v.getMessage()).contains("Signup v1 is an older version; this consumer reads v2");
    }

    @Test
    void refusalsNameTheFieldAndTheRuleNeverTheValue() {
        assertThat(violation("{\"type\":\"Secret-Thing\",\"v\":2,\"id\":\"s\"}"))
                .extracting(SchemaViolation::errorType, SchemaViolation::getMessage)
                .containsExactly("UnexpectedEventType", "$.type is not Signup, the type this consumer reads");
        assertThat(violation("{\"type\":\"Signup\",\"id\":\"s\"}").getMessage()).isEqualTo("Signup without $.v");
        assertThat(violation("{\"type\":\"Signup\",\"v\":\"2\",\"id\":\"s\"}").errorType())
                .isEqualTo("InvalidVersion");
        assertThat(violation("{\"type\":\"Signup\",\"v\":9,\"id\":\"s\"}").getMessage())
                .isEqualTo("Signup v9 is not a known version; this consumer reads v2");
        SchemaViolation noContact = violation("{\"type\":\"Signup\",\"v\":2,\"id\":\"s-1\"}");
        assertThat(noContact.errorType()).isEqualTo("SchemaValidation");
        assertThat(noContact.getMessage()).isEqualTo("Signup v2 fails its schema: $.contact is missing");
        SchemaViolation badKey = violation(V2.replace("\"s-1\"", "\"s 1\""));
        assertThat(badKey.errorType()).isEqualTo("InvalidKey");
        assertThat(badKey.getMessage()).contains("$.id is no key").contains("U+0020 at index 1");
        assertThat(violation(V2 + V2).errorType()).isEqualTo("TrailingTokens");
        assertThat(violation(V2.replace("\"extra\"", "\"id\":\"x\",\"extra\"")).getMessage())
                .contains("$.id appears twice");
    }

    @Test
    void theProducerKeyOfAnyVersionIsReadWithoutValidatingTheRest() {
        assertThat(reader.producerKey(message(V1))).contains("s-1");
        assertThat(reader.producerKey(message("{\"id\":\"only-a-key\"}"))).contains("only-a-key");
        assertThat(reader.producerKey(message("{\"id\":\"no key\"}"))).isEmpty();
        assertThat(reader.producerKey(message("not json"))).isEmpty();
    }

    @Test
    void aKeyInAMessageAttributeIsReadFromTheAttribute() {
        ContractReader audit = Fixtures.routes().readers(List.of()).get("audit");

        assertThat(audit.parse(message("{\"what\":\"login\"}", Map.of("eventId", "a-7")))
                        .producerKey())
                .isEqualTo("a-7");
        SchemaViolation missing =
                catchThrowableOfType(SchemaViolation.class, () -> audit.parse(message("{\"what\":\"login\"}")));
        assertThat(missing.errorType()).isEqualTo("MissingKey");
        assertThat(missing.getMessage()).contains("message attribute eventId");
    }

    @Test
    void aRuleOfTheConsumerGivesItsOwnReasonBeforeTheSchemaDoes() {
        EventContract contract = reader.contract();
        ContractReader strict = new ContractReader(contract, List.of(), List.of((type, version, event) -> {
            if (event.path("id").asText().startsWith("x")) {
                throw new SchemaViolation("InvalidSignupId", "$.id starts with x");
            }
        }));

        assertThat(catchThrowableOfType(
                                SchemaViolation.class, () -> strict.parse(message(V2.replace("\"s-1\"", "\"x 1\""))))
                        .errorType())
                .isEqualTo("InvalidSignupId");
    }

    private SchemaViolation violation(String body) {
        return catchThrowableOfType(SchemaViolation.class, () -> reader.parse(message(body)));
    }
}
