package dev.redrive.cdk.monitoring;

import java.util.Objects;
import java.util.regex.Pattern;
import software.amazon.awscdk.services.lambda.IFunction;

/**
 * A function {@link Monitoring} alarms on: its errors ({@code <prefix>-<name>-errors}) and its throttles
 * ({@code <prefix>-<name>-throttles}), each per period over {@link AlarmThresholds#functionErrors()} and
 * {@link AlarmThresholds#functionThrottles()}.
 *
 * @param name     names its alarms: letters, digits, {@code .}, {@code -} and {@code _}, a plain string, not a token
 * @param function the function, made here or imported ({@code Function.fromFunctionName})
 */
public record MonitoredFunction(String name, IFunction function) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    /** Checks both parts are given and the name can name alarms. */
    public MonitoredFunction {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(function, "function");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("monitored function '" + name + "' is not a name (letters, digits, '.',"
                    + " '-' and '_'): its alarms are named after it");
        }
    }
}
