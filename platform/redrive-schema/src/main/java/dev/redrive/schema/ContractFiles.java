package dev.redrive.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * An event contract kept as files, the way a project declares it once for its consumers, its IaC and its build:
 * {@code contracts/<Type>.json} (the key, event type and version pointers, as a route declares them),
 * {@code schemas/<Type>/v<n>.json} (versions from 1 up, without gaps) and {@code upcasters/<Type>/v<n>.json} (the
 * RFC 6902 patch from v{@code n} to v{@code n+1}), read from a class path or a directory.
 */
public final class ContractFiles {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_VERSION = 1000;

    private ContractFiles() {}

    /** The files under {@code anchor}'s class path root, read through its class loader. */
    public static Function<String, Optional<String>> classpath(Class<?> anchor) {
        return classpath(anchor.getClassLoader());
    }

    /** The files at the root of {@code loader}'s class path. */
    public static Function<String, Optional<String>> classpath(ClassLoader loader) {
        return path -> {
            try (InputStream in = loader.getResourceAsStream(path)) {
                return in == null
                        ? Optional.empty()
                        : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + path + " from the class path", e);
            }
        };
    }

    /** The files under the directory {@code root}. */
    public static Function<String, Optional<String>> directory(Path root) {
        return path -> {
            Path file = root.resolve(path);
            try {
                return Files.isRegularFile(file) ? Optional.of(Files.readString(file)) : Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        };
    }

    /** The contract of {@code consumer}, which reads {@code type} as {@code files} declare it. */
    public static EventContract read(String consumer, String type, Function<String, Optional<String>> files) {
        JsonNode pointers = tree(files, "contracts/" + type + ".json")
                .orElseThrow(() -> new IllegalArgumentException("contracts/" + type + ".json is missing"));
        SortedMap<Integer, JsonNode> schemas = new TreeMap<>();
        SortedMap<Integer, JsonNode> patches = new TreeMap<>();
        for (int v = 1; v <= MAX_VERSION; v++) {
            Optional<JsonNode> schema = tree(files, "schemas/" + type + "/v" + v + ".json");
            if (schema.isEmpty()) {
                break;
            }
            schemas.put(v, schema.get());
            int from = v;
            tree(files, "upcasters/" + type + "/v" + v + ".json").ifPresent(p -> patches.put(from, p));
        }
        String declaration = "{\"version\":1,\"routes\":[{\"consumer\":" + JSON.valueToTree(consumer)
                + ",\"sourceQueue\":\"-\",\"deadLetterQueue\":\"-\"," + body(pointers) + "}]}";
        EventContract pointed = RoutesDocument.parse(declaration)
                .route(consumer)
                .flatMap(DeclaredRoute::contract)
                .orElseThrow();
        return new EventContract(
                consumer,
                pointed.key(),
                pointed.typePointer(),
                pointed.versionPointer(),
                Map.of(type, schemas),
                patches.isEmpty() ? Map.of() : Map.of(type, patches));
    }

    /** The pointers' fields, with a placeholder schema so they parse as a route. */
    private static String body(JsonNode pointers) {
        String fields = pointers.toString();
        return fields.substring(1, fields.length() - 1) + ",\"schemas\":{\"T\":{\"1\":{}}}";
    }

    private static Optional<JsonNode> tree(Function<String, Optional<String>> files, String path) {
        return files.apply(path).map(text -> {
            try {
                return JSON.readTree(text);
            } catch (IOException e) {
                throw new IllegalArgumentException(path + " is not JSON: " + e.getMessage(), e);
            }
        });
    }
}
