package dev.redrive.console;

import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.sweeper.Route;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the console reads and acts through: core's operator port (the CLI's, so no rule is written twice), the routes
 * it shows, the operator's own identity (the actor of every action taken in the console) and the clock.
 *
 * @param operator the operator port, built by the CLI from its settings
 * @param routes   the configured routes (the overview shows each)
 * @param actor    the acting person, asked for when an action is taken (the CLI resolves it from STS)
 * @param clock    the time pages are measured at
 */
public record ConsoleSources(OperatorPort operator, List<Route> routes, Supplier<Actor> actor, Clock clock) {

    public ConsoleSources {
        Objects.requireNonNull(operator, "operator");
        routes = List.copyOf(routes);
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(clock, "clock");
    }
}
