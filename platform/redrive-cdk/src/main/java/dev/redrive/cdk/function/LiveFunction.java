package dev.redrive.cdk.function;

import java.util.Objects;
import java.util.Optional;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;

/**
 * A function as {@link FunctionFactory} made it, and what its triggers invoke. On the JVM runtime that is the alias
 * {@value FunctionFactory#LIVE_ALIAS} of its current published version, which runs SnapStart (SnapStart applies only to
 * published versions, never to {@code $LATEST}); on the native runtime, which SnapStart does not support, the function
 * itself.
 *
 * @param function the function: its configuration, environment, role, log group and metrics ({@code FunctionName}
 *                 aggregates every version and alias)
 * @param alias    the {@value FunctionFactory#LIVE_ALIAS} alias of its published SnapStart version (JVM only)
 */
public record LiveFunction(Function function, Optional<Alias> alias) {

    /** Checks that neither part is null. */
    public LiveFunction {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(alias, "alias");
    }

    /**
     * What every trigger must invoke (event source mappings, schedules, Function URLs, invoke permissions and the
     * asynchronous invocation settings, which are per qualifier): the alias when there is one, else the function.
     */
    public IFunction entryPoint() {
        return alias.<IFunction>map(a -> a).orElse(function);
    }
}
