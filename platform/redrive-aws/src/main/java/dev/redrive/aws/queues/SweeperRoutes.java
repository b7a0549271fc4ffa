package dev.redrive.aws.queues;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.sweeper.Route;
import dev.redrive.schema.DeclaredRoute;
import dev.redrive.schema.RoutesDocument;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the sweeper's routes ({@code redrive.sweeper.routes}, {@code REDRIVE_SWEEPER_ROUTES}; the functions and the CLI
 * read the same JSON): a JSON array of {@code {"consumer", "sourceQueueUrl", "deadLetterQueueUrl"}}
 * objects (or {@code sourceQueue} / {@code deadLetterQueue} with queue names, looked up once). Bad configuration fails
 * at start with the problem named, never half-way through a sweep.
 */
public final class SweeperRoutes {

    private SweeperRoutes() {}

    /**
     * The queues of every route of {@code routes} (the routes document, {@code REDRIVE_ROUTES}), their URLs registered
     * in {@code directory} so they are never looked up.
     */
    public static List<Route> of(RoutesDocument routes, QueueDirectory directory) {
        List<Route> parsed = new ArrayList<>();
        for (DeclaredRoute r : routes.routes()) {
            Route route = new Route(
                    r.consumer(), QueueAddress.nameOf(r.sourceQueue()), QueueAddress.nameOf(r.deadLetterQueue()));
            if (r.sourceQueue().contains("://")) {
                directory.register(route.sourceQueue(), r.sourceQueue());
            }
            if (r.deadLetterQueue().contains("://")) {
                directory.register(route.deadLetterQueue(), r.deadLetterQueue());
            }
            parsed.add(route);
        }
        return List.copyOf(parsed);
    }

    public static List<Route> parse(String json, ObjectMapper mapper, QueueDirectory directory) {
        JsonNode routes;
        try {
            routes = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "redrive.sweeper.routes (REDRIVE_SWEEPER_ROUTES) is not JSON: " + e.getOriginalMessage());
        }
        if (routes == null || !routes.isArray()) {
            throw new IllegalArgumentException("redrive.sweeper.routes must be a JSON array of routes");
        }
        List<Route> parsed = new ArrayList<>();
        for (JsonNode r : routes) {
            String consumer = text(r, "consumer");
            String source = r.hasNonNull("sourceQueueUrl") ? text(r, "sourceQueueUrl") : text(r, "sourceQueue");
            String deadLetters =
                    r.hasNonNull("deadLetterQueueUrl") ? text(r, "deadLetterQueueUrl") : text(r, "deadLetterQueue");
            Route route = new Route(consumer, QueueAddress.nameOf(source), QueueAddress.nameOf(deadLetters));
            if (source.contains("://")) {
                directory.register(route.sourceQueue(), source);
            }
            if (deadLetters.contains("://")) {
                directory.register(route.deadLetterQueue(), deadLetters);
            }
            parsed.add(route);
        }
        return List.copyOf(parsed);
    }

    private static String text(JsonNode route, String field) {
        JsonNode v = route.get(field);
        if (v == null || v.asText().isBlank()) {
            throw new IllegalArgumentException("a route in redrive.sweeper.routes has no '" + field + "': " + route);
        }
        return v.asText();
    }
}
