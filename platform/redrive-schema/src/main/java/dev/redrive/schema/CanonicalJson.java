package dev.redrive.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The canonical JSON of a document: object keys sorted (by UTF-16 code units), no whitespace, numbers as they were
 * written (an integer stays an integer, a decimal keeps its digits), strings escaped the one way Jackson writes them.
 * Two documents that differ only in key order or layout have the same canonical JSON: it is the payload a claim
 * fingerprints, computed the same way by the consumer, the sweeper and the CLI.
 */
public final class CanonicalJson {

    private static final JsonFactory FACTORY = new JsonFactory();

    private CanonicalJson() {}

    /** The canonical JSON of {@code node}. */
    public static String of(JsonNode node) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(node, g);
        } catch (IOException e) {
            throw new UncheckedIOException("a JSON tree could not be written", e);
        }
        return out.toString();
    }

    private static void write(JsonNode node, JsonGenerator g) throws IOException {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(String::compareTo);
            g.writeStartObject();
            for (String name : names) {
                g.writeFieldName(name);
                write(node.get(name), g);
            }
            g.writeEndObject();
        } else if (node.isArray()) {
            g.writeStartArray();
            for (JsonNode item : node) {
                write(item, g);
            }
            g.writeEndArray();
        } else if (node.isIntegralNumber()) {
            g.writeNumber(node.bigIntegerValue());
        } else if (node.isNumber()) {
            g.writeNumber(node.decimalValue());
        } else if (node.isTextual()) {
            g.writeString(node.textValue());
        } else if (node.isBoolean()) {
            g.writeBoolean(node.booleanValue());
        } else {
            g.writeNull();
        }
    }
}
