package dev.redrive.cdk.function;

import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.services.lambda.Runtime;

/**
 * How the one functions artifact runs on Lambda. The artifact decides: a native {@code bootstrap} zip needs
 * {@link #NATIVE}, the JVM {@code function.zip} needs {@link #JVM}. Chosen with the CDK context {@code runtime}
 * ({@code jvm}, the default, or {@code native}).
 */
public enum FunctionRuntime {

    /** A GraalVM native executable on the OS-only runtime {@code provided.al2023}. */
    NATIVE("not.used.in.provided.runtime", Map.of("DISABLE_SIGNAL_HANDLERS", "true"), 256),

    /** The Quarkus JVM jar on the managed {@code java21} runtime. */
    JVM(
            "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest",
            // C1 only: the usual cold-start trade for short-lived Lambda JVMs.
            Map.of("JAVA_TOOL_OPTIONS", "-XX:+TieredCompilation -XX:TieredStopAtLevel=1"),
            1024);

    private final String handler;
    private final Map<String, String> environment;
    private final int defaultMemoryMb;

    FunctionRuntime(String handler, Map<String, String> environment, int defaultMemoryMb) {
        this.handler = handler;
        this.environment = environment;
        this.defaultMemoryMb = defaultMemoryMb;
    }

    /** The Lambda runtime (resolved lazily: it is a jsii object). */
    public Runtime lambdaRuntime() {
        return this == NATIVE ? Runtime.PROVIDED_AL2023 : Runtime.JAVA_21;
    }

    /** The Lambda {@code Handler} property; the Quarkus handler itself is chosen by {@code QUARKUS_LAMBDA_HANDLER}. */
    public String handler() {
        return handler;
    }

    /** Environment variables this runtime needs on every function. */
    public Map<String, String> environment() {
        return environment;
    }

    /** Memory when a function does not say: a native executable needs far less than a JVM. */
    public int defaultMemoryMb() {
        return defaultMemoryMb;
    }

    /**
     * Whether functions of this runtime run Lambda SnapStart on a published version: the managed {@code java21}
     * runtime does; the OS-only {@code provided.al2023} the native executable runs on is not supported by SnapStart
     * (and a native executable has nothing to snapshot: it starts in milliseconds).
     */
    public boolean snapStart() {
        return this == JVM;
    }

    /** Parses the context value {@code native} or {@code jvm} (any case). */
    public static FunctionRuntime parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown function runtime '" + value
                            + "': use -c runtime=native (a native bootstrap zip) or -c runtime=jvm (the JVM function.zip)",
                    e);
        }
    }
}
