package dev.redrive.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.replay.SchemaGate;
import org.junit.jupiter.api.Test;

class CheckoutSchemaGateTest {

    final ObjectMapper json = new ObjectMapper();
    final CheckoutSchemaGate gate = new CheckoutSchemaGate(json, new EventSchemas(), CheckoutSchemaGate.upcasters());

    static final String V1 = "{\"eventType\":\"OrderPlaced\",\"version\":1,\"eventId\":\"e-1\",\"orderId\":\"o-1\","
            + "\"customerEmail\":\"ada@example.com\",\"totalCents\":1999,\"currency\":\"EUR\","
            + "\"placedAt\":\"2026-11-29T10:15:30Z\",\"channel\":\"web\"}";

    @Test
    void aV1PayloadIsUpcastLosslesslyToAValidV2() throws Exception {
        SchemaGate.Verdict verdict = gate.check("confirmation-email", V1);

        assertThat(verdict).isInstanceOf(SchemaGate.Upcast.class);
        SchemaGate.Upcast upcast = (SchemaGate.Upcast) verdict;
        assertThat(upcast.fromVersion()).isEqualTo(1);
        assertThat(upcast.toVersion()).isEqualTo(2);
        JsonNode v2 = json.readTree(upcast.body());
        assertThat(v2.get("version").asInt()).isEqualTo(2);
        assertThat(v2.get("customer").get("email").asText()).isEqualTo("ada@example.com");
        assertThat(v2.get("total").get("amountMinor").asLong()).isEqualTo(1999);
        assertThat(v2.get("total").get("currency").asText()).isEqualTo("EUR");
        assertThat(v2.get("channel").asText()).as("unknown fields survive").isEqualTo("web");
        assertThat(v2.has("customerEmail")).isFalse();
    }

    @Test
    void theCurrentVersionPassesAndBrokenOrUnknownOnesAreIncompatibleWithTheReason() {
        String v2 = V1.replace("\"version\":1", "\"version\":2")
                .replace(
                        "\"customerEmail\":\"ada@example.com\"," + "\"totalCents\":1999,\"currency\":\"EUR\"",
                        "\"customer\":{\"email\":\"ada@example.com\"},"
                                + "\"total\":{\"amountMinor\":1999,\"currency\":\"EUR\"}");
        assertThat(gate.check("x", v2)).isInstanceOf(SchemaGate.Current.class);
        assertThat(gate.check("x", V1.replace("\"version\":1", "\"version\":0")))
                .isEqualTo(new SchemaGate.Incompatible("OrderPlaced v0 has no registered upcaster to v2"));
        assertThat(gate.check("x", V1.replace("\"totalCents\":1999", "\"totalCents\":\"lots\"")))
                .isInstanceOfSatisfying(
                        SchemaGate.Incompatible.class,
                        i -> assertThat(i.reason())
                                .contains("does not satisfy v2")
                                .contains("$.total.amountMinor")
                                .doesNotContain("lots"));
        assertThat(gate.check("x", "nope")).isEqualTo(new SchemaGate.Incompatible("the payload is not JSON"));
    }

    @Test
    void aReplayIsReadAsStrictlyAsAFirstDelivery() {
        String v2 = V1.replace("\"version\":1", "\"version\":2")
                .replace(
                        "\"customerEmail\":\"ada@example.com\"," + "\"totalCents\":1999,\"currency\":\"EUR\"",
                        "\"customer\":{\"email\":\"ada@example.com\"},"
                                + "\"total\":{\"amountMinor\":1999,\"currency\":\"EUR\"}");
        assertThat(reason(v2 + v2)).contains("more than one JSON value");
        assertThat(reason(v2.replace("\"orderId\"", "\"eventId\":\"e-2\",\"orderId\"")))
                .contains("$.eventId appears twice");
        assertThat(reason(v2.replace("1999", "18446744073709551716"))).contains("$.total.amountMinor is out of range");
        assertThat(reason(V1.replace("1999", "18446744073709551716"))).contains("$.total.amountMinor");
        assertThat(reason(v2.replace("\"e-1\"", "\"e\\u0000-1\""))).contains("$.eventId holds a control character");
        assertThat(reason(v2.replace("\"OrderPlaced\"", "\"ada@example.com\""))).doesNotContain("ada");
    }

    private String reason(String body) {
        SchemaGate.Verdict verdict = gate.check("x", body);
        assertThat(verdict).isInstanceOf(SchemaGate.Incompatible.class);
        return ((SchemaGate.Incompatible) verdict).reason();
    }
}
