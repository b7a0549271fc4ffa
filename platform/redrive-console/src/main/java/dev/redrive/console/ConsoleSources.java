package dev.redrive.console;

import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.sweeper.Route;
import dev.redrive.schema.PayloadRedactor;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the console reads and acts through: core's operator port (the CLI's, so no rule is written twice), the routes
 * it shows, the operator's own identity (the actor of every action taken in the console), the clock, and what an
 * operator may see of a payload (the redactor of the routes' event schemas, the one {@code redrive show} uses).
 *
 * @param operator the operator port, built by the CLI from its settings
 * @param routes   the configured routes (the overview shows each)
 * @param actor    the acting person, asked for when an action is taken (the CLI resolves it from STS)
 * @param clock    the time pages are measured at
 * @param redactor redacts payloads by the routes' event schemas (the CLI builds it from the routes document)
 */
public record ConsoleSources(
        OperatorPort operator, List<Route> routes, Supplier<Actor> actor, Clock clock, PayloadRedactor redactor) {

    public ConsoleSources {
        Objects.requireNonNull(operator, "operator");
        routes = List.copyOf(routes);
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(redactor, "redactor");
    }

    /** Sources that know no event schema: every payload is withheld whole unless revealed. */
    public ConsoleSources(OperatorPort operator, List<Route> routes, Supplier<Actor> actor, Clock clock) {
        this(operator, routes, actor, clock, PayloadRedactor.withoutSchemas());
    }
}
