package dev.redrive.localrun.bench;

import dev.redrive.localrun.lambda.FunctionArtifact;
import dev.redrive.localrun.lambda.ManagedJavaRuntime;
import dev.redrive.localrun.lambda.SandboxSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One way of starting the JVM artifact that the start-up benchmark compares: the class data it maps, and what the
 * runtime tells it about its init.
 *
 * @param name        the name the table shows (and {@code --options} takes)
 * @param about       what it is, in a line
 * @param runtime     the {@code java21} runtime's launch, changed
 * @param environment variables added to the function's environment
 * @param artifact    another build of the artifact to start, if not the one the run packaged
 */
record StartOption(
        String name,
        String about,
        UnaryOperator<ManagedJavaRuntime> runtime,
        Map<String, String> environment,
        Optional<FunctionArtifact> artifact) {

    /** The option every other is compared with: what Lambda's {@code java21} runtime does without SnapStart. */
    static final String BASELINE = "jdk-cds";

    /** The variable the managed runtime sets to {@code snap-start} when it initializes a SnapStart version. */
    static final String INITIALIZATION_TYPE = "AWS_LAMBDA_INITIALIZATION_TYPE";

    /**
     * Every option, in the order the table shows them. {@code archive}, when trained, is the artifact's AppCDS;
     * {@code noPreload}, when built, is the artifact built with {@code quarkus.snapstart.enabled=false};
     * {@code nativeBinary}, when given, is a native build of the functions ({@code provided.al2023}'s
     * {@code bootstrap}).
     */
    static List<StartOption> all(
            Optional<Path> archive, Optional<FunctionArtifact> noPreload, Optional<FunctionArtifact> nativeBinary) {
        List<StartOption> options = new ArrayList<>();
        options.add(new StartOption(
                "no-cds",
                "-Xshare:off: no class-data archive at all, every class read from its jar",
                ManagedJavaRuntime::withoutClassDataSharing,
                Map.of(),
                Optional.empty()));
        options.add(new StartOption(
                BASELINE,
                "-Xshare:auto: the JDK's default class-data archive (Lambda's java21 without SnapStart maps its own)",
                r -> r,
                Map.of(),
                Optional.empty()));
        archive.ifPresent(a -> options.add(new StartOption(
                "appcds",
                "-XX:SharedArchiveFile: an AppCDS archive of the artifact, dumped by a sandbox at its first poll",
                r -> r.withClassDataArchive(a),
                Map.of(),
                Optional.empty())));
        noPreload.ifPresent(artifact -> options.add(new StartOption(
                "quarkus-lazy",
                "the artifact built with quarkus.snapstart.enabled=false: Quarkus neither preloads the application's "
                        + "classes nor starts the application in the init; its first event does",
                r -> r,
                Map.of(),
                Optional.of(artifact))));
        options.add(new StartOption(
                "snapstart-init",
                INITIALIZATION_TYPE + "=snap-start: the init SnapStart runs before its snapshot (the artifact's "
                        + "beforeCheckpoint hook primes the function), then the first event in the same process",
                r -> r,
                Map.of(INITIALIZATION_TYPE, "snap-start"),
                Optional.empty()));
        nativeBinary.ifPresent(artifact -> options.add(new StartOption(
                "native",
                "the native executable (provided.al2023's bootstrap) of " + artifact.executable()
                        + ": no JVM, the same environment and Runtime API",
                r -> r,
                Map.of(),
                Optional.of(artifact))));
        return options;
    }

    /** {@code spec} with this option's environment and artifact. */
    SandboxSpec apply(SandboxSpec spec) {
        Map<String, String> env = new HashMap<>(spec.environment());
        env.putAll(environment);
        return new SandboxSpec(
                spec.functionName(), spec.functionArn(), artifact.orElse(spec.artifact()), spec.memoryMb(), env);
    }
}
