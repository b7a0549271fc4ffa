package dev.redrive.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class EventSchemasTest {

    final EventSchemas schemas = new EventSchemas();

    @Test
    void personalDataIsMarkedSensitiveInEveryVersionAndTheMarkDoesNotChangeValidation() throws Exception {
        JsonNode v1 = schemas.schema("OrderPlaced", 1).orElseThrow().getSchemaNode();
        JsonNode v2 = schemas.schema("OrderPlaced", 2).orElseThrow().getSchemaNode();

        assertThat(v1.at("/properties/customerEmail/" + EventSchemas.SENSITIVE).asBoolean())
                .isTrue();
        assertThat(v2.at("/properties/customer/properties/email/" + EventSchemas.SENSITIVE)
                        .asBoolean())
                .isTrue();
        assertThat(v2.at("/properties/customer/properties/name/" + EventSchemas.SENSITIVE)
                        .asBoolean())
                .isTrue();
        assertThat(v2.at("/properties/orderId/" + EventSchemas.SENSITIVE).isMissingNode())
                .isTrue();
        JsonNode valid = new ObjectMapper().readTree(CheckoutSchemaGateTest.V1);
        assertThat(schemas.problems("OrderPlaced", 1, valid)).isEmpty();
    }
}
