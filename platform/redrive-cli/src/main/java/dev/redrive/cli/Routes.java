package dev.redrive.cli;

import dev.redrive.schema.RoutesDocument;
import dev.redrive.schema.RoutesStore;
import java.io.UncheckedIOException;

/**
 * Reads the routes document the sweeper is configured with ({@code REDRIVE_ROUTES} or {@code --routes}: an {@code
 * s3://} object, a file or the JSON, read by the same code as the sweeper's), turning a bad value into a one-line
 * configuration error.
 */
final class Routes {

    private Routes() {}

    static RoutesDocument load(String spec, RoutesStore store) {
        try {
            return RoutesDocument.load(spec, store);
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            throw CliException.config(e.getMessage() + " (" + Settings.ROUTES + " or --routes)");
        }
    }
}
