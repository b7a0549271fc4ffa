package dev.redrive.cli;

import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.sweeper.Route;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.schema.SchemaRegistry;
import java.util.List;

/**
 * What the commands of one run work with: core's operator port (every rule goes through it), the configured routes,
 * and for the few commands that read AWS settings themselves (the actor's identity, {@code backoff --queue}) the AWS
 * clients. {@link AwsBackend} is the real one; tests run the commands on the in-memory fakes too.
 */
interface Backend extends AutoCloseable {

    OperatorPort operator();

    /** The queues of the routes document ({@code REDRIVE_ROUTES} or {@code --routes}). */
    List<Route> routes();

    /** The routes document: the consumers declared, with their contracts. */
    RoutesDocument routesDocument();

    /** The configured route of source queue {@code name}, else one found from the queue's redrive policy. */
    Route routeOf(String name);

    /** The event schemas the routes declare, for redaction. */
    SchemaRegistry schemas();

    Settings settings();

    /** The AWS clients; a backend without AWS throws a configuration error. */
    AwsClients aws();

    /** Queue URLs by name; a backend without AWS throws a configuration error. */
    QueueDirectory directory();

    @Override
    void close();
}
