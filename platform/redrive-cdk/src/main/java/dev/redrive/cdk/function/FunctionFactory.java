package dev.redrive.cdk.function;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.lambda.VersionOptions;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * Makes the Lambda functions of the stack: all run the one {@link FunctionArtifact}, each with its own Quarkus
 * handler ({@code QUARKUS_LAMBDA_HANDLER}), and each logs to a log group of its own with a bounded retention. On the
 * JVM runtime each function runs Lambda SnapStart: a version is published whenever its code or configuration changes,
 * Lambda snapshots it after its init (the artifact's priming hook, an org.crac {@code Resource}, runs then), and the
 * alias {@value #LIVE_ALIAS} points at it; its triggers must invoke that alias ({@link LiveFunction#entryPoint()}).
 */
public final class FunctionFactory {

    /** The environment variable that picks the {@code @Named} handler inside the one artifact. */
    public static final String HANDLER_VARIABLE = "QUARKUS_LAMBDA_HANDLER";

    /** The alias of a JVM function's published SnapStart version: every trigger invokes it. */
    public static final String LIVE_ALIAS = "live";

    private final FunctionArtifact artifact;
    private final Supplier<Code> code;
    private final Optional<String> plainHandler;
    private final Architecture architecture;

    /** Functions of the one Quarkus artifact, each picking its handler by {@value #HANDLER_VARIABLE}. */
    public FunctionFactory(FunctionArtifact artifact, Architecture architecture) {
        this.artifact = Objects.requireNonNull(artifact, "artifact");
        this.code = artifact::code;
        this.plainHandler = Optional.empty();
        this.architecture = architecture;
    }

    private FunctionFactory(Code code, String handler, Architecture architecture) {
        this.artifact = null;
        this.code = () -> code;
        this.plainHandler = Optional.of(handler);
        this.architecture = architecture;
    }

    /**
     * Functions of a plain Java artifact on the JVM runtime, whose Lambda handler is {@code handler}
     * ({@code com.example.Handler::handleRequest}): no {@value #HANDLER_VARIABLE}. The sweeper's own code
     * ({@code SweeperCode}) runs this way.
     */
    public static FunctionFactory plain(Code code, String handler, Architecture architecture) {
        if (!handler.matches("[\\w.$]+::\\w+")) {
            throw new IllegalArgumentException("handler '" + handler + "' is not a Java Lambda handler: use "
                    + "<fully.qualified.Class>::<method>");
        }
        return new FunctionFactory(Objects.requireNonNull(code, "code"), handler, architecture);
    }

    /** The artifact the functions run; empty for a {@link #plain} factory. */
    public Optional<FunctionArtifact> artifact() {
        return Optional.ofNullable(artifact);
    }

    /** Every environment variable a function of {@code spec} gets: its own, its runtime's, and the handler. */
    public Map<String, String> environment(FunctionSpec spec) {
        Map<String, String> environment = new TreeMap<>(spec.environment());
        environment.putAll(spec.runtime().environment());
        if (plainHandler.isEmpty()) {
            environment.put(HANDLER_VARIABLE, spec.handlerName());
        }
        return environment;
    }

    /**
     * A function named {@code id} inside {@code scope}, and its log group ({@code id + "Logs"}); on the JVM runtime
     * with SnapStart on its published versions, its current version and the alias {@value #LIVE_ALIAS}
     * ({@code id + "Live"}) on it. Throws {@link IllegalArgumentException} when its environment could pass Lambda's
     * 4 KB ({@link EnvironmentSize}).
     */
    public LiveFunction create(Construct scope, String id, FunctionSpec spec) {
        if (plainHandler.isPresent() && spec.runtime() != FunctionRuntime.JVM) {
            throw new IllegalArgumentException("the plain Java handler " + plainHandler.get() + " runs on the JVM "
                    + "runtime, not " + spec.runtime());
        }
        Map<String, String> environment = environment(spec);
        EnvironmentSize.requireWithinLimit(scope, spec.handlerName(), environment, "");
        LogGroup logs = LogGroup.Builder.create(scope, id + "Logs")
                .retention(RetentionDays.ONE_MONTH)
                .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE)
                .build();
        Function.Builder function = Function.Builder.create(scope, id)
                .description(spec.description())
                .code(code.get())
                .runtime(spec.runtime().lambdaRuntime())
                .handler(plainHandler.orElse(spec.runtime().handler()))
                .architecture(architecture)
                .memorySize(spec.memoryMb())
                .timeout(Duration.seconds(spec.timeout().toSeconds()))
                .environment(environment)
                .logGroup(logs);
        spec.reservedConcurrency().ifPresent(function::reservedConcurrentExecutions);
        if (!spec.runtime().snapStart()) {
            return new LiveFunction(function.build(), Optional.empty());
        }
        // The current version's logical id hashes the function's code and configuration (read at synth, so variables
        // added after this call count too): a deploy that changes either publishes a new version, snapshotted with
        // SnapStart, and moves the alias to it. The version it replaces is deleted once the alias has moved.
        Function built = function.snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS)
                .currentVersionOptions(VersionOptions.builder()
                        .removalPolicy(RemovalPolicy.DESTROY)
                        .build())
                .build();
        Alias live = Alias.Builder.create(scope, id + "Live")
                .aliasName(LIVE_ALIAS)
                .version(built.getCurrentVersion())
                .description("What every trigger of " + spec.handlerName() + " invokes: its SnapStart version")
                .build();
        return new LiveFunction(built, Optional.of(live));
    }
}
