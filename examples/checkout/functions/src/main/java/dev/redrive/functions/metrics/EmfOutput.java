package dev.redrive.functions.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import software.amazon.cloudwatchlogs.emf.environment.Environment;
import software.amazon.cloudwatchlogs.emf.model.MetricsContext;
import software.amazon.cloudwatchlogs.emf.sinks.ISink;

/**
 * Where Embedded Metric Format documents go: one JSON line each, synchronously, to stdout in Lambda (CloudWatch Logs
 * turns them into metrics). No agent, no background thread, no socket; tests pass their own line consumer.
 *
 * <p>For a native image, the EMF model Jackson serializes is registered for reflection here, with the serializers and
 * filters its annotations name ({@code @JsonSerialize(using)}, {@code @JsonDeserialize(using)},
 * {@code @JsonInclude(valueFilter)}), which Jackson instantiates by reflection on the first flush
 * (NativeImageMetadataIT finds them from the annotations and fails if one is missing).
 */
@RegisterForReflection(
        classNames = {
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
            "software.amazon.cloudwatchlogs.emf.serializers.StorageResolutionFilter"
        })
public final class EmfOutput implements Environment, ISink {

    private final Consumer<String> lines;

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
