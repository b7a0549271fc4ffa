package dev.redrive.functions.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records the lines written to this JVM's standard output while open (and still writes them through), which is where
 * the integration-test launchers copy the launched artifact's output: what Lambda would send to CloudWatch Logs,
 * including the EMF documents CloudWatch turns into metrics.
 */
final class StandardOutput implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream original = System.out;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private StandardOutput() {
        OutputStream tee = new OutputStream() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) {
                original.write(b);
                if (b == '\n') {
                    lines.add(line.toString(StandardCharsets.UTF_8));
                    line.reset();
                } else {
                    line.write(b);
                }
            }
        };
        System.setOut(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    static StandardOutput capture() {
        return new StandardOutput();
    }

    /** The EMF documents among the lines so far. */
    List<JsonNode> emfDocuments() {
        List<JsonNode> documents = new ArrayList<>();
        for (String line : lines) {
            String json = line.trim();
            if (json.startsWith("{\"_aws\"")) {
                try {
                    documents.add(JSON.readTree(json));
                } catch (IOException e) {
                    // a line that starts like EMF but is not JSON is not an EMF document
                }
            }
        }
        return documents;
    }

    @Override
    public void close() {
        System.out.flush();
        System.setOut(original);
    }
}
