package dev.redrive.localstack.provision;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link TemplateProvisioner} made from a template: the queues, tables and buckets it created, and the
 * functions, event source mappings and schedules it read for the local runner. Maps are keyed by logical id, in
 * template order.
 *
 * @param stackName           the stack name used for generated names and {@code AWS::StackName}
 * @param queues              queues by logical id
 * @param tables              tables by logical id
 * @param buckets             buckets by logical id
 * @param functions           functions by logical id
 * @param eventSourceMappings SQS event source mappings
 * @param streamMappings      DynamoDB stream event source mappings
 * @param functionUrls        Function URLs
 * @param schedules           EventBridge Scheduler schedules
 */
public record ProvisionedResources(
        String stackName,
        Map<String, LocalQueue> queues,
        Map<String, LocalTable> tables,
        Map<String, LocalBucket> buckets,
        Map<String, LocalFunction> functions,
        List<LocalEventSourceMapping> eventSourceMappings,
        List<LocalStreamMapping> streamMappings,
        List<LocalFunctionUrl> functionUrls,
        List<LocalSchedule> schedules) {

    /** Copies the collections. */
    public ProvisionedResources {
        queues = Collections.unmodifiableMap(new LinkedHashMap<>(queues));
        tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
        buckets = Collections.unmodifiableMap(new LinkedHashMap<>(buckets));
        functions = Collections.unmodifiableMap(new LinkedHashMap<>(functions));
        eventSourceMappings = List.copyOf(eventSourceMappings);
        streamMappings = List.copyOf(streamMappings);
        functionUrls = List.copyOf(functionUrls);
        schedules = List.copyOf(schedules);
    }

    /** The queue with this name. */
    public Optional<LocalQueue> queueNamed(String name) {
        return queues.values().stream().filter(q -> q.name().equals(name)).findFirst();
    }

    /** The table with this name. */
    public Optional<LocalTable> tableNamed(String name) {
        return tables.values().stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** The function whose {@code QUARKUS_LAMBDA_HANDLER} is {@code handler}. */
    public Optional<LocalFunction> functionWithHandler(String handler) {
        return functions.values().stream()
                .filter(f -> f.quarkusHandler().equals(Optional.of(handler)))
                .findFirst();
    }

    /** The stream mappings that invoke the function {@code functionLogicalId}. */
    public List<LocalStreamMapping> streamMappingsOf(String functionLogicalId) {
        return streamMappings.stream()
                .filter(m -> m.functionLogicalId().equals(functionLogicalId))
                .toList();
    }

    /** The Function URL of the function {@code functionLogicalId}, if it has one. */
    public Optional<LocalFunctionUrl> urlOf(String functionLogicalId) {
        return functionUrls.stream()
                .filter(u -> u.functionLogicalId().equals(functionLogicalId))
                .findFirst();
    }

    /** The event source mappings that invoke the function {@code functionLogicalId}. */
    public List<LocalEventSourceMapping> mappingsOf(String functionLogicalId) {
        return eventSourceMappings.stream()
                .filter(m -> m.functionLogicalId().equals(functionLogicalId))
                .toList();
    }
}
