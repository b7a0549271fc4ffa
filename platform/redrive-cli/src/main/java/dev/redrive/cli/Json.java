package dev.redrive.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.io.PrintWriter;
import java.time.Instant;

/**
 * Machine output ({@code --json}): Jackson trees built field by field, no reflection on the CLI's types (native-image
 * friendly), instants in ISO-8601, durations in seconds.
 */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper COMPACT = new ObjectMapper();

    private Json() {}

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** Prints {@code node} indented. */
    static void print(PrintWriter out, Object node) {
        out.println(write(MAPPER, node));
        out.flush();
    }

    /** Prints {@code node} on one line (JSON Lines, for bulk runs). */
    static void printLine(PrintWriter out, Object node) {
        out.println(write(COMPACT, node));
        out.flush();
    }

    private static String write(ObjectMapper mapper, Object node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("output did not serialize", e);
        }
    }

    /**
     * One dead letter's outcome in a bulk run: a JSON line with {@code --json}, else the id and the outcome in words.
     */
    static void outcome(PrintWriter out, boolean json, String id, Object outcome, String description, boolean dryRun) {
        if (json) {
            ObjectNode n = object();
            n.put("id", id);
            n.put("outcome", outcome.getClass().getSimpleName());
            n.put("dryRun", dryRun);
            n.put("description", description);
            printLine(out, n);
        } else {
            out.println(String.format("%-26s  %s", id, description));
            out.flush();
        }
    }

    static String instant(Instant at) {
        return at == null ? null : at.toString();
    }

    /** The listing view of a record: no payload, no attributes. */
    static ObjectNode summary(QuarantineRecord r, Instant now) {
        ObjectNode n = object();
        n.put("id", r.id());
        n.put("state", r.state().name());
        n.put("consumer", r.consumer());
        n.put("sourceQueue", r.sourceQueue());
        n.put("deadLetterQueue", r.deadLetterQueue());
        n.set("classification", classification(r.classification()));
        n.put("arrivedAt", instant(r.arrivedAt()));
        n.put("ageSeconds", r.age(now).toSeconds());
        n.put("firstFailedAt", instant(r.firstFailedAt()));
        n.put("lastFailedAt", instant(r.lastFailedAt()));
        n.put("receiveCount", r.receiveCount());
        n.put("replayCount", r.replayCount());
        n.put("note", r.note());
        return n;
    }

    static ObjectNode classification(Classification c) {
        ObjectNode n = object();
        n.put("failureClass", c.failureClass().name());
        n.put("errorType", c.errorType());
        n.put("reason", c.reason());
        n.put("dependency", c.dependency());
        return n;
    }

    static ArrayNode audit(QuarantineRecord r) {
        ArrayNode trail = array();
        for (AuditEntry a : r.audit()) {
            ObjectNode e = trail.addObject();
            e.put("from", a.from() == null ? null : a.from().name());
            e.put("to", a.to().name());
            e.put("at", instant(a.at()));
            e.put("actor", a.actor().name());
            e.put("reason", a.reason());
            e.put("action", a.action().name());
        }
        return trail;
    }
}
