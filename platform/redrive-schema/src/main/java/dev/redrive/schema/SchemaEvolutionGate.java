package dev.redrive.schema;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import dev.redrive.core.schema.UpcasterChain;
import dev.redrive.schema.SchemaEvolution.BreakingChange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The schema-evolution gate of the build: every event schema version N+1 (in {@code <root>/<EventType>/v<N>.json})
 * is checked against version N by {@link SchemaEvolution}. A breaking change passes only when an upcaster from N to
 * N+1 is registered and the gate has verified it: every example of version N (the schema's {@code examples}), once
 * upcast, validates against version N+1. Every version must carry at least one example, and its examples must
 * validate against it.
 *
 * <p>Run it from a test (see {@code SchemaEvolutionGateTest}): an empty list of problems passes the build; each
 * problem names the event, the versions, the field and the rule.
 */
public final class SchemaEvolutionGate {

    private static final Pattern VERSION_FILE = Pattern.compile("v(\\d+)\\.json");

    private final ObjectMapper json = new ObjectMapper();
    private final UpcasterChain upcasters;

    public SchemaEvolutionGate(UpcasterChain upcasters) {
        this.upcasters = upcasters;
    }

    /** The problems of every event type under {@code root}; empty when the build may pass. */
    public List<String> check(Path root) {
        List<String> problems = new ArrayList<>();
        for (Path eventDir : list(root)) {
            if (Files.isDirectory(eventDir)) {
                problems.addAll(checkEvent(eventDir.getFileName().toString(), versions(eventDir)));
            }
        }
        return problems;
    }

    private List<String> checkEvent(String eventType, TreeMap<Integer, JsonNode> versions) {
        List<String> problems = new ArrayList<>();
        versions.forEach((version, schema) -> problems.addAll(examplesProblems(eventType, version, schema)));
        Integer previous = null;
        for (int version : versions.keySet()) {
            if (previous != null) {
                problems.addAll(pairProblems(eventType, previous, version, versions));
            }
            previous = version;
        }
        return problems;
    }

    private List<String> pairProblems(String eventType, int older, int newer, Map<Integer, JsonNode> versions) {
        String pair = eventType + " v" + newer + " against v" + older;
        if (newer != older + 1) {
            return List.of(pair + ": versions go one at a time (v" + (older + 1) + " is missing)");
        }
        List<BreakingChange> changes = SchemaEvolution.breakingChanges(versions.get(older), versions.get(newer));
        if (changes.isEmpty()) {
            return List.of();
        }
        if (!upcasters.canUpcast(eventType, older, newer)) {
            List<String> problems = new ArrayList<>();
            for (BreakingChange c : changes) {
                problems.add(pair + ": " + c + "; a new version may only add optional fields: make this a new "
                        + "event type, or register an upcaster from v" + older + " to v" + newer);
            }
            return problems;
        }
        return upcasterProblems(eventType, older, newer, versions);
    }

    private List<String> upcasterProblems(String eventType, int older, int newer, Map<Integer, JsonNode> versions) {
        List<String> problems = new ArrayList<>();
        JsonSchema target = SchemaRegistry.compile(versions.get(newer));
        int n = 0;
        for (JsonNode example : versions.get(older).path("examples")) {
            int index = ++n;
            Map<String, Object> tree = json.convertValue(example, new TypeReference<Map<String, Object>>() {});
            JsonNode upcast = json.valueToTree(
                    upcasters.upcast(eventType, older, newer, tree).orElseThrow());
            target.validate(upcast)
                    .forEach(m -> problems.add(eventType + " upcaster v" + older + " to v" + newer + " turns example "
                            + index + " of v" + older + " into an event that fails v" + newer + ": "
                            + m.getInstanceLocation() + " breaks '" + m.getType() + "'"));
        }
        return problems;
    }

    private List<String> examplesProblems(String eventType, int version, JsonNode schema) {
        JsonNode examples = schema.path("examples");
        if (!examples.isArray() || examples.isEmpty()) {
            return List.of(eventType + " v" + version + ": the schema has no \"examples\"; the gate needs at least "
                    + "one valid event of every version to verify upcasters");
        }
        List<String> problems = new ArrayList<>();
        JsonSchema compiled = SchemaRegistry.compile(schema);
        int n = 0;
        for (JsonNode example : examples) {
            n++;
            int index = n;
            compiled.validate(example)
                    .forEach(m -> problems.add(eventType + " v" + version + ": example " + index + " fails its own "
                            + "schema: " + m.getInstanceLocation() + " breaks '" + m.getType() + "'"));
        }
        return problems;
    }

    private TreeMap<Integer, JsonNode> versions(Path eventDir) {
        TreeMap<Integer, JsonNode> versions = new TreeMap<>();
        for (Path file : list(eventDir)) {
            Matcher m = VERSION_FILE.matcher(file.getFileName().toString());
            if (m.matches()) {
                try {
                    versions.put(Integer.parseInt(m.group(1)), json.readTree(file.toFile()));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the schema " + file, e);
                }
            }
        }
        return versions;
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }
}
