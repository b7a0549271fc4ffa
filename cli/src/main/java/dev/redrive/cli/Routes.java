package dev.redrive.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.queues.QueueAddress;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.core.sweeper.Route;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the routes the sweeper is configured with ({@code REDRIVE_SWEEPER_ROUTES}, the same JSON the functions read):
 * an array of {@code {"consumer", "sourceQueueUrl" | "sourceQueue", "deadLetterQueueUrl" | "deadLetterQueue"}}.
 * URLs are registered in the queue directory, so they are never looked up.
 */
final class Routes {

    private Routes() {
    }

    static List<Route> parse(String json, ObjectMapper mapper, QueueDirectory directory) {
        JsonNode routes;
        try {
            routes = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw CliException.config(Settings.ROUTES + " (or --routes) is not JSON: " + e.getOriginalMessage());
        }
        if (routes == null || !routes.isArray()) {
            throw CliException.config(Settings.ROUTES + " (or --routes) must be a JSON array of routes");
        }
        List<Route> parsed = new ArrayList<>();
        for (JsonNode r : routes) {
            String source = r.hasNonNull("sourceQueueUrl") ? text(r, "sourceQueueUrl") : text(r, "sourceQueue");
            String deadLetters = r.hasNonNull("deadLetterQueueUrl") ? text(r, "deadLetterQueueUrl")
                    : text(r, "deadLetterQueue");
            Route route = new Route(text(r, "consumer"), QueueAddress.nameOf(source),
                    QueueAddress.nameOf(deadLetters));
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
            throw CliException.config("a route in " + Settings.ROUTES + " has no '" + field + "'");
        }
        return v.asText();
    }
}
