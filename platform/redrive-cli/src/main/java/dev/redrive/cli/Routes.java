package dev.redrive.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SweeperRoutes;
import dev.redrive.core.sweeper.Route;
import java.util.List;

/**
 * Reads the routes the sweeper is configured with ({@code REDRIVE_SWEEPER_ROUTES}, the same JSON the functions read,
 * parsed by the same code), turning a bad value into a one-line configuration error.
 */
final class Routes {

    private Routes() {}

    static List<Route> parse(String json, ObjectMapper mapper, QueueDirectory directory) {
        try {
            return SweeperRoutes.parse(json, mapper, directory);
        } catch (IllegalArgumentException e) {
            throw CliException.config(e.getMessage() + " (" + Settings.ROUTES + " or --routes)");
        }
    }
}
