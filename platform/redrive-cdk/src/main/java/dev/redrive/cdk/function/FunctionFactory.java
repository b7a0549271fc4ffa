package dev.redrive.cdk.function;

import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * Makes the Lambda functions of the stack: all run the one {@link FunctionArtifact}, each with its own Quarkus
 * handler ({@code QUARKUS_LAMBDA_HANDLER}), and each logs to a log group of its own with a bounded retention.
 */
public final class FunctionFactory {

    /** The environment variable that picks the {@code @Named} handler inside the one artifact. */
    public static final String HANDLER_VARIABLE = "QUARKUS_LAMBDA_HANDLER";

    private final FunctionArtifact artifact;
    private final Architecture architecture;

    public FunctionFactory(FunctionArtifact artifact, Architecture architecture) {
        this.artifact = artifact;
        this.architecture = architecture;
    }

    /** The artifact the functions run. */
    public FunctionArtifact artifact() {
        return artifact;
    }

    /** Every environment variable a function of {@code spec} gets: its own, its runtime's, and the handler. */
    public Map<String, String> environment(FunctionSpec spec) {
        Map<String, String> environment = new TreeMap<>(spec.environment());
        environment.putAll(spec.runtime().environment());
        environment.put(HANDLER_VARIABLE, spec.handlerName());
        return environment;
    }

    /**
     * A function named {@code id} inside {@code scope}, and its log group ({@code id + "Logs"}). Throws
     * {@link IllegalArgumentException} when its environment could pass Lambda's 4 KB ({@link EnvironmentSize}).
     */
    public Function create(Construct scope, String id, FunctionSpec spec) {
        Map<String, String> environment = environment(spec);
        EnvironmentSize.requireWithinLimit(scope, spec.handlerName(), environment, "");
        LogGroup logs = LogGroup.Builder.create(scope, id + "Logs")
                .retention(RetentionDays.ONE_MONTH)
                .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE)
                .build();
        return Function.Builder.create(scope, id)
                .description(spec.description())
                .code(artifact.code())
                .runtime(spec.runtime().lambdaRuntime())
                .handler(spec.runtime().handler())
                .architecture(architecture)
                .memorySize(spec.memoryMb())
                .timeout(Duration.seconds(spec.timeout().toSeconds()))
                .environment(environment)
                .logGroup(logs)
                .build();
    }
}
