package dev.redrive.localrun.lambda;

import java.util.Map;

/**
 * What every sandbox of one function is started from: the function as the template declares it and the artifact.
 *
 * @param functionName the handler name the function is known by
 * @param functionArn  its ARN, sent with every invocation
 * @param artifact     the packaged functions
 * @param memoryMb     the function's memory setting (sizes the heap, as the managed runtime does)
 * @param environment  the function's environment, with the local endpoints
 */
public record SandboxSpec(
        String functionName,
        String functionArn,
        FunctionArtifact artifact,
        int memoryMb,
        Map<String, String> environment) {

    public SandboxSpec {
        environment = Map.copyOf(environment);
    }

    /** The handler the runtime interface client is started with: the function's {@code _HANDLER}, or Quarkus's. */
    public String handler() {
        return environment.getOrDefault("_HANDLER", FunctionArtifact.JVM_HANDLER);
    }
}
