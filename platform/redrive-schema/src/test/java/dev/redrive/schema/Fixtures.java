package dev.redrive.schema;

import dev.redrive.core.consumer.IncomingMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The example routes document of these tests and messages to read with it. */
final class Fixtures {

    private Fixtures() {}

    static String routesJson() {
        try (InputStream in = Fixtures.class.getResourceAsStream("/routes-example.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RoutesDocument routes() {
        return RoutesDocument.parse(routesJson());
    }

    static final String V1 =
            "{\"type\":\"Signup\",\"v\":1,\"id\":\"s-1\",\"email\":\"ada@example.com\",\"extra\":true}";
    static final String V2 = "{\"type\":\"Signup\",\"v\":2,\"id\":\"s-1\",\"contact\":{\"email\":\"ada@example.com\"},"
            + "\"extra\":true}";

    static IncomingMessage message(String body) {
        return message(body, Map.of());
    }

    static IncomingMessage message(String body, Map<String, String> attributes) {
        return new IncomingMessage("m-1", "r-1", body, attributes, 1, "q", null);
    }
}
