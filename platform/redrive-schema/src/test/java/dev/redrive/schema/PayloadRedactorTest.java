package dev.redrive.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayloadRedactorTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    final SchemaRegistry schemas = SchemaRegistry.of(
            Map.of(
                    "Signup",
                    Map.of(
                            2,
                            json(
                                    "{\"type\":\"object\",\"properties\":{"
                                            + "\"eventType\":{\"type\":\"string\"},\"version\":{\"type\":\"integer\"},"
                                            + "\"person\":{\"type\":\"object\",\"properties\":{"
                                            + "\"email\":{\"type\":\"string\",\"x-sensitive\":true},\"plan\":{\"type\":\"string\"}}},"
                                            + "\"phones\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"x-sensitive\":true}}}}"))));
    final PayloadRedactor redactor = new PayloadRedactor(schemas);

    static final String BODY = "{\"eventType\":\"Signup\",\"version\":2,"
            + "\"person\":{\"email\":\"ada@example.com\",\"plan\":\"pro\"},\"phones\":[\"+44 1\",\"+44 2\"]}";

    @Test
    void theSchemasSensitiveFieldsAreRedactedAndNamedInArraysToo() {
        PayloadRedactor.Redaction r = redactor.redact(BODY);

        assertThat(r.redacted()).containsExactly("$.person.email", "$.phones[0]", "$.phones[1]");
        assertThat(r.sensitive()).isEqualTo(r.redacted());
        assertThat(r.revealed()).isFalse();
        assertThat(r.basis()).isEqualTo("schema Signup v2");
        assertThat(r.shown()).doesNotContain("ada@example.com", "+44").contains("\"plan\" : \"pro\"");
        assertThat(r.payload().orElseThrow().at("/person/email").asText()).isEqualTo(PayloadRedactor.MASK);
    }

    @Test
    void aRevealShowsEverythingAndSaysWhereTheSensitiveFieldsAre() {
        PayloadRedactor.Redaction r = redactor.reveal(BODY);

        assertThat(r.revealed()).isTrue();
        assertThat(r.redacted()).isEmpty();
        assertThat(r.sensitive()).containsExactly("$.person.email", "$.phones[0]", "$.phones[1]");
        assertThat(r.shown()).contains("ada@example.com", "+44 2");
        assertThat(r.payload().orElseThrow()).isEqualTo(json(BODY));
    }

    @Test
    void aPayloadWhoseSensitiveFieldsCannotBeToldIsWithheldWhole() {
        PayloadRedactor.Redaction text = redactor.redact("call ada@example.com");
        PayloadRedactor.Redaction unknown = redactor.redact("{\"eventType\":\"Other\",\"secret\":\"s\"}");
        PayloadRedactor.Redaction none = PayloadRedactor.withoutSchemas().redact(BODY);

        for (PayloadRedactor.Redaction r : List.of(text, unknown, none)) {
            assertThat(r.withheld()).isTrue();
            assertThat(r.shown()).isEmpty();
            assertThat(r.sensitive()).containsExactly(PayloadRedactor.WHOLE);
        }
        assertThat(text.basis())
                .isEqualTo("not a JSON object (20 characters): withheld, since its sensitive fields "
                        + "cannot be told apart");
        assertThat(redactor.reveal("call ada@example.com").shown()).isEqualTo("call ada@example.com");
        assertThat(redactor.reveal("call ada@example.com").sensitive()).containsExactly(PayloadRedactor.WHOLE);
    }

    @Test
    void aVersionWithoutASchemaIsRedactedByTheNamesItsOtherVersionsMarkSensitive() {
        PayloadRedactor.Redaction r =
                redactor.redact("{\"eventType\":\"Signup\",\"version\":1,\"contact\":{\"email\":\"x@y\"}}");

        assertThat(r.redacted()).containsExactly("$.contact.email");
        assertThat(r.shown()).doesNotContain("x@y");
        assertThat(r.basis()).startsWith("Signup v1 has no schema: redacted by the names [email] marked");
    }

    @Test
    void attributesWhoseNamesLookSecretAreNamedForRedaction() {
        assertThat(PayloadRedactor.secretAttributePaths(java.util.Set.of(
                        "traceparent",
                        "Authorization",
                        "x-api-key",
                        "sessionToken",
                        "contentType",
                        "webhook-signature")))
                .containsExactly(
                        "attribute:Authorization",
                        "attribute:sessionToken",
                        "attribute:webhook-signature",
                        "attribute:x-api-key");
        assertThat(PayloadRedactor.secretAttribute("traceparent")).isFalse();
    }
}
