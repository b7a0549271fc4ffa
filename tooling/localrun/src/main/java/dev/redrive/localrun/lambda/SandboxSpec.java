package dev.redrive.localrun.lambda;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    /**
     * One process of this function as Lambda's runtime starts it: the artifact's command ({@code extraJvmFlags} right
     * after the {@code java} executable), the function's environment plus what the runtime sets (the Runtime API at
     * {@code runtimeApi}, name, version, memory, handler, {@code TMPDIR}), run in {@code dir} as the leader of a
     * process group of its own, output appended to {@code log}.
     */
    public ProcessBuilder process(
            ManagedJavaRuntime runtime, Path tmp, String runtimeApi, List<String> extraJvmFlags, Path dir, Path log) {
        List<String> command = new ArrayList<>(artifact.command(runtime, memoryMb, tmp, handler()));
        command.addAll(1, extraJvmFlags);
        // A process group of its own, so that ending the sandbox ends everything it started (SandboxProcesses).
        ProcessBuilder pb = new ProcessBuilder(SandboxProcesses.inItsOwnGroup(command));
        Map<String, String> env = pb.environment();
        env.putAll(environment);
        env.put("AWS_LAMBDA_RUNTIME_API", runtimeApi);
        env.put("AWS_LAMBDA_FUNCTION_NAME", functionName);
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(memoryMb));
        env.put("_HANDLER", handler());
        env.put("TMPDIR", tmp.toString());
        pb.directory(dir.toFile());
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return pb;
    }

    /** The handler the runtime interface client is started with: the function's {@code _HANDLER}, or Quarkus's. */
    public String handler() {
        return environment.getOrDefault("_HANDLER", FunctionArtifact.JVM_HANDLER);
    }
}
