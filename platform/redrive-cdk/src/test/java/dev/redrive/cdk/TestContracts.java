package dev.redrive.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.schema.EventContract;
import dev.redrive.schema.KeySource;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/** The event contract the constructs' tests declare for a consumer: one type, one version, the key at /orderId. */
public final class TestContracts {

    private TestContracts() {}

    /** {@code consumer}'s contract of {@code OrderPlaced} v1, which requires {@code orderId}. */
    public static EventContract orderPlaced(String consumer) {
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        schema.put("type", "object");
        schema.putArray("required").add("orderId");
        SortedMap<Integer, JsonNode> versions = new TreeMap<>(Map.of(1, schema));
        return new EventContract(
                consumer,
                KeySource.pointer("/orderId"),
                Optional.empty(),
                Optional.empty(),
                Map.of("OrderPlaced", versions),
                Map.of());
    }
}
