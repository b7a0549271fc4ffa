package dev.redrive.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.consumer.ParsedMessage;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.core.replay.SchemaGate;
import dev.redrive.core.schema.Upcaster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The routes document ({@code {"version": 1, "routes": [...]}}): for every consumer, where its dead letters are and
 * how to check a replay without its code. The sweeper, the CLI and the console read the same bytes, from
 * {@code REDRIVE_ROUTES}: {@code s3://bucket/key} (through a {@link RoutesStore}), a file path, or the JSON itself. The
 * old {@code REDRIVE_SWEEPER_ROUTES} array (queues only) is still read ({@link #parseLegacy}), as routes without a
 * contract whose replays are refused.
 *
 * <p>Parsing validates everything at once, and a problem names the route (its index and consumer) and the field: a bad
 * document fails at start, never half-way through a sweep.
 */
public final class RoutesDocument {

    /** The only document version this reader knows. */
    public static final int VERSION = 1;

    /** The variable that says where the routes document is. */
    public static final String VARIABLE = "REDRIVE_ROUTES";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<DeclaredRoute> routes;
    private final Map<String, DeclaredRoute> byConsumer = new TreeMap<>();

    /** A document of these routes; a consumer may be declared once. */
    public RoutesDocument(List<DeclaredRoute> routes) {
        this.routes = List.copyOf(routes);
        for (int i = 0; i < this.routes.size(); i++) {
            DeclaredRoute r = this.routes.get(i);
            if (byConsumer.put(r.consumer(), r) != null) {
                throw new IllegalArgumentException(
                        "routes[" + i + "] (consumer '" + r.consumer() + "'): the consumer is declared twice");
            }
        }
    }

    /**
     * Reads the routes document {@code spec} says where: {@code s3://bucket/key} through {@code store}, a JSON
     * document (starting with <code>{</code> or, the old form, <code>[</code>), else a file path.
     */
    public static RoutesDocument load(String spec, RoutesStore store) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException(VARIABLE + " is not set: give s3://bucket/key, a file path or the JSON");
        }
        String s = spec.strip();
        if (s.startsWith("s3://")) {
            String rest = s.substring("s3://".length());
            int slash = rest.indexOf('/');
            if (slash <= 0 || slash == rest.length() - 1) {
                throw new IllegalArgumentException(VARIABLE + " '" + s + "' is not s3://bucket/key");
            }
            return parse(store.read(rest.substring(0, slash), rest.substring(slash + 1)));
        }
        if (s.startsWith("{")) {
            return parse(s);
        }
        if (s.startsWith("[")) {
            return parseLegacy(s);
        }
        try {
            return parse(Files.readString(Path.of(s), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(VARIABLE + " names the file " + s + ", which cannot be read", e);
        }
    }

    /** Parses and validates a routes document. */
    public static RoutesDocument parse(String json) {
        return new RoutesDocument(RoutesParser.parse(json));
    }

    /**
     * Parses the old {@code REDRIVE_SWEEPER_ROUTES}: a JSON array of {@code {"consumer", "sourceQueue(Url)",
     * "deadLetterQueue(Url)"}}. Read for one minor version more; its routes carry no contract.
     */
    public static RoutesDocument parseLegacy(String json) {
        return new RoutesDocument(RoutesParser.parseLegacy(json));
    }

    /** Every route, in document order. */
    public List<DeclaredRoute> routes() {
        return routes;
    }

    /** The route of {@code consumer}. */
    public Optional<DeclaredRoute> route(String consumer) {
        return Optional.ofNullable(byConsumer.get(consumer));
    }

    /**
     * The dependencies whose shared circuit breakers the routes declare, sorted, each once: the breakers the sweeper's
     * windows hold and an operator lists, holds, releases and probes. Empty for the old queues-only document.
     */
    public List<String> breakers() {
        return routes.stream()
                .map(DeclaredRoute::breaker)
                .flatMap(Optional::stream)
                .distinct()
                .sorted()
                .toList();
    }

    /** The declared consumers' names, sorted: what an error about an undeclared one names. */
    public List<String> consumers() {
        return List.copyOf(byConsumer.keySet());
    }

    /**
     * The readers of the routes that declare a contract, by consumer, with the Java upcasters the context class loader
     * registers ({@code ServiceLoader}).
     */
    public Map<String, ContractReader> readers() {
        return readers(Upcasters.registered(loader()));
    }

    /** The readers of the routes that declare a contract, with {@code java} upcasters besides their patches. */
    public Map<String, ContractReader> readers(List<Upcaster> java) {
        Map<String, ContractReader> readers = new LinkedHashMap<>();
        for (DeclaredRoute r : routes) {
            r.contract().ifPresent(c -> readers.put(r.consumer(), new ContractReader(c, java, List.of())));
        }
        return readers;
    }

    /**
     * The key readers of every route, for the sweeper's key lookup and the replay's idempotency gate: a route without a
     * contract reads no key ("route X declares no key"), so its replays are refused as unsafe.
     */
    public Map<String, KeyReader> keyReaders(Map<String, ContractReader> readers) {
        Map<String, KeyReader> keys = new LinkedHashMap<>();
        for (DeclaredRoute r : routes) {
            ContractReader reader = readers.get(r.consumer());
            keys.put(r.consumer(), reader != null ? reader : new NoKey(r.consumer()));
        }
        return keys;
    }

    /**
     * The schema gate of every route: a route without a contract is incompatible ("route X declares no key"), a
     * consumer no route declares is incompatible with the declared ones named.
     */
    public SchemaGate schemaGate(Map<String, ContractReader> readers) {
        ContractSchemaGate declared = new ContractSchemaGate(readers);
        return new SchemaGate() {
            @Override
            public Verdict check(String consumer, String body) {
                if (!byConsumer.containsKey(consumer)) {
                    return new SchemaGate.Incompatible(undeclared(consumer));
                }
                return readers.containsKey(consumer)
                        ? declared.check(consumer, body)
                        : new SchemaGate.Incompatible(NoKey.reason(consumer));
            }

            @Override
            public Set<String> sensitivePaths(String consumer, String body) {
                return declared.sensitivePaths(consumer, body);
            }
        };
    }

    /** The reason a consumer no route declares is refused: it names the declared ones. */
    public String undeclared(String consumer) {
        return "no route declares the consumer '" + consumer + "' (declared: " + String.join(", ", consumers()) + ")";
    }

    /**
     * Every schema the routes declare, by event type and version (the first route's, when two declare one type): what
     * operator tools redact a payload by ({@code x-sensitive}).
     */
    public SchemaRegistry schemas() {
        Map<String, Map<Integer, JsonNode>> all = new TreeMap<>();
        for (DeclaredRoute r : routes) {
            r.contract().ifPresent(c -> c.schemas().forEach((type, versions) -> all.putIfAbsent(type, versions)));
        }
        return SchemaRegistry.of(all);
    }

    /** This document as JSON ({@code {"version": 1, "routes": [...]}}), as it is parsed. */
    public String toJson() {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("version", VERSION);
        ArrayNode array = doc.putArray("routes");
        routes.forEach(r -> array.add(RoutesParser.write(r)));
        return doc.toString();
    }

    /** The reader of a route that declares no contract. */
    private record NoKey(String consumer) implements KeyReader {
        static String reason(String consumer) {
            return "route " + consumer + " declares no key";
        }

        @Override
        public ParsedMessage<?> parse(IncomingMessage message) {
            throw new SchemaViolation("NoContract", reason(consumer));
        }

        @Override
        public Optional<String> producerKey(IncomingMessage message) {
            return Optional.empty();
        }
    }

    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : RoutesDocument.class.getClassLoader();
    }

    static JsonNode tree(String json, String what) {
        try {
            return JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(what + " is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(what + " could not be read", e);
        }
    }
}
