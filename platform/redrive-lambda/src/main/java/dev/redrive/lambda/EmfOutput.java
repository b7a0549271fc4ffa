package dev.redrive.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import software.amazon.cloudwatchlogs.emf.environment.Environment;
import software.amazon.cloudwatchlogs.emf.model.MetricsContext;
import software.amazon.cloudwatchlogs.emf.sinks.ISink;

/**
 * Where Embedded Metric Format documents go: one JSON line each, synchronously, to stdout in Lambda (CloudWatch Logs
 * turns them into metrics). No agent, no background thread, no socket; tests pass their own line consumer.
 *
 * <p>For a native image, the EMF model Jackson serializes must be registered for reflection, with the serializers and
 * filters its annotations name: {@link #REFLECTED_CLASSES}, which a native build registers (a Quarkus function with
 * {@code @RegisterForReflection(classNames = ...)}, a plain one in its {@code reflect-config.json}).
 */
public final class EmfOutput implements Environment, ISink {

    /**
     * The EMF classes Jackson instantiates by reflection on the first flush: the model, and the serializers and filters
     * its annotations name ({@code @JsonSerialize(using)}, {@code @JsonDeserialize(using)},
     * {@code @JsonInclude(valueFilter)}).
     */
    public static final List<String> REFLECTED_CLASSES = List.of(
            "software.amazon.cloudwatchlogs.emf.model.RootNode",
            "software.amazon.cloudwatchlogs.emf.model.Metadata",
            "software.amazon.cloudwatchlogs.emf.model.MetricDirective",
            "software.amazon.cloudwatchlogs.emf.model.MetricDefinition",
            "software.amazon.cloudwatchlogs.emf.model.DimensionSet",
            "software.amazon.cloudwatchlogs.emf.model.Unit",
            "software.amazon.cloudwatchlogs.emf.model.StorageResolution",
            "software.amazon.cloudwatchlogs.emf.serializers.InstantSerializer",
            "software.amazon.cloudwatchlogs.emf.serializers.InstantDeserializer",
            "software.amazon.cloudwatchlogs.emf.serializers.UnitSerializer",
            "software.amazon.cloudwatchlogs.emf.serializers.UnitDeserializer",
            "software.amazon.cloudwatchlogs.emf.serializers.StorageResolutionSerializer",
            "software.amazon.cloudwatchlogs.emf.serializers.StorageResolutionFilter");

    private final Consumer<String> lines;

    /** Writes each document as one line to {@code lines}. */
    public EmfOutput(Consumer<String> lines) {
        this.lines = lines;
    }

    /** Standard output, as Lambda expects. */
    public static EmfOutput stdout() {
        return new EmfOutput(line -> {
            System.out.println(line);
            System.out.flush();
        });
    }

    @Override
    public boolean probe() {
        return true;
    }

    @Override
    public String getName() {
        String name = System.getenv("AWS_LAMBDA_FUNCTION_NAME");
        return name == null ? "redrive" : name;
    }

    @Override
    public String getType() {
        return "AWS::Lambda::Function";
    }

    @Override
    public String getLogGroupName() {
        return "";
    }

    @Override
    public void configureContext(MetricsContext context) {
        // No extra properties: the Lambda log stream already identifies the invocation.
    }

    @Override
    public ISink getSink() {
        return this;
    }

    @Override
    public void accept(MetricsContext context) {
        try {
            context.serialize().forEach(lines);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("EMF document did not serialize", e);
        }
    }

    @Override
    public CompletableFuture<Void> shutdown() {
        return CompletableFuture.completedFuture(null);
    }
}
