package dev.redrive.localstack.provision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.localstack.provision.CloudFormationTemplate.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads what the local runner needs from the template's functions, event source mappings (SQS and DynamoDB streams),
 * Function URLs and schedules, with
 * every intrinsic resolved to the local resources. Nothing is created for them: the local runner runs them.
 */
final class ComputeReader {

    private final IntrinsicResolver resolver;
    private final ResourceRegistry registry;

    ComputeReader(IntrinsicResolver resolver, ResourceRegistry registry) {
        this.resolver = resolver;
        this.registry = registry;
    }

    LocalFunction function(Resource resource) {
        JsonNode props = resolver.resolve(resource.properties());
        Map<String, String> environment = new TreeMap<>();
        props.path("Environment")
                .path("Variables")
                .properties()
                .forEach(e -> environment.put(
                        e.getKey(),
                        e.getValue().isValueNode()
                                ? e.getValue().asText()
                                : e.getValue().toString()));
        List<String> architectures = new ArrayList<>();
        props.path("Architectures").forEach(a -> architectures.add(a.asText()));
        return new LocalFunction(
                resource.logicalId(),
                registry.ref(resource.logicalId()).asText(),
                registry.getAtt(resource.logicalId(), "Arn").asText(),
                Optional.ofNullable(environment.get(LocalFunction.QUARKUS_HANDLER_VARIABLE)),
                environment,
                Duration.ofSeconds(props.path("Timeout").asLong(3)),
                props.path("MemorySize").asInt(128),
                props.path("Runtime").asText(""),
                props.path("Handler").asText(""),
                architectures.isEmpty() ? List.of("x86_64") : architectures);
    }

    /** The mapping, if its source is one of the template's queues (a stream's is {@link #streamMapping}). */
    Optional<LocalEventSourceMapping> eventSourceMapping(
            Resource resource, Map<String, LocalFunction> functions, Map<String, LocalQueue> queues) {
        JsonNode props = resolver.resolve(resource.properties());
        String function = invoked(resource, props, functions);
        String sourceArn = props.path("EventSourceArn").asText();
        Optional<String> queue = queues.values().stream()
                .filter(q -> q.arn().equals(sourceArn))
                .map(LocalQueue::logicalId)
                .findFirst();
        JsonNode concurrency = props.path("ScalingConfig").path("MaximumConcurrency");
        return queue.map(q -> new LocalEventSourceMapping(
                resource.logicalId(),
                function,
                q,
                props.path("BatchSize").asInt(10),
                Duration.ofSeconds(props.path("MaximumBatchingWindowInSeconds").asLong(0)),
                concurrency.isMissingNode() ? Optional.empty() : Optional.of(concurrency.asInt()),
                texts(props.path("FunctionResponseTypes")),
                props.path("Enabled").asBoolean(true)));
    }

    /** The mapping, if its source is the stream of one of the template's tables. */
    Optional<LocalStreamMapping> streamMapping(
            Resource resource,
            Map<String, LocalFunction> functions,
            Map<String, LocalTable> tables,
            Map<String, LocalQueue> queues) {
        JsonNode props = resolver.resolve(resource.properties());
        String sourceArn = props.path("EventSourceArn").asText();
        Optional<LocalTable> table = tables.values().stream()
                .filter(t -> t.streamArn().equals(Optional.of(sourceArn)))
                .findFirst();
        if (table.isEmpty()) {
            return Optional.empty();
        }
        String function = invoked(resource, props, functions);
        List<String> patterns = new ArrayList<>();
        props.path("FilterCriteria")
                .path("Filters")
                .forEach(f -> patterns.add(f.path("Pattern").asText()));
        String destination = props.path("DestinationConfig")
                .path("OnFailure")
                .path("Destination")
                .asText("");
        Optional<String> onFailure = Optional.empty();
        if (!destination.isEmpty()) {
            onFailure = Optional.of(queues.values().stream()
                    .filter(q -> q.arn().equals(destination))
                    .map(LocalQueue::logicalId)
                    .findFirst()
                    .orElseThrow(() -> new TemplateException("event source mapping " + resource.logicalId()
                            + " sends failed batches to " + destination + ", which is not a queue of the template "
                            + "(only SQS on-failure destinations are run locally)")));
        }
        String start = props.path("StartingPosition").asText("TRIM_HORIZON");
        if (!start.equals("TRIM_HORIZON") && !start.equals("LATEST")) {
            throw new TemplateException("event source mapping " + resource.logicalId() + " starts at " + start
                    + ": only TRIM_HORIZON and LATEST are run locally");
        }
        return Optional.of(new LocalStreamMapping(
                resource.logicalId(),
                function,
                table.get().logicalId(),
                sourceArn,
                props.path("BatchSize").asInt(100),
                Duration.ofSeconds(props.path("MaximumBatchingWindowInSeconds").asLong(0)),
                patterns,
                props.path("BisectBatchOnFunctionError").asBoolean(false),
                props.path("MaximumRetryAttempts").asInt(-1),
                onFailure,
                texts(props.path("FunctionResponseTypes")),
                start,
                props.path("Enabled").asBoolean(true)));
    }

    /** The template's Function URL: the function it invokes and how it is called. */
    LocalFunctionUrl functionUrl(Resource resource, Map<String, LocalFunction> functions) {
        JsonNode props = resolver.resolve(resource.properties());
        String target = props.path("TargetFunctionArn").asText();
        String function = functions.values().stream()
                .filter(f -> f.arn().equals(target) || f.name().equals(target) || target.startsWith(f.arn() + ":"))
                .map(LocalFunction::logicalId)
                .findFirst()
                .orElseThrow(() -> new TemplateException("function URL " + resource.logicalId() + " targets " + target
                        + ", which is not a function of the template"));
        return new LocalFunctionUrl(
                resource.logicalId(),
                function,
                props.path("AuthType").asText("NONE"),
                props.path("InvokeMode").asText("BUFFERED"));
    }

    private static String invoked(Resource resource, JsonNode props, Map<String, LocalFunction> functions) {
        String functionRef = props.path("FunctionName").asText();
        return functions.values().stream()
                .filter(f -> f.name().equals(functionRef)
                        || functionRef.startsWith(f.name() + ":") // <name>:<alias>, as CDK names an alias
                        || f.arn().equals(functionRef)
                        || functionRef.startsWith(f.arn() + ":"))
                .map(LocalFunction::logicalId)
                .findFirst()
                .orElseThrow(() -> new TemplateException("event source mapping " + resource.logicalId() + " invokes "
                        + functionRef + ", which is not a function of the template"));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(t -> out.add(t.asText()));
        return out;
    }

    LocalSchedule schedule(Resource resource, Map<String, LocalFunction> functions) {
        JsonNode props = resolver.resolve(resource.properties());
        JsonNode target = props.path("Target");
        String targetArn = target.path("Arn").asText();
        Optional<String> function = functions.values().stream()
                .filter(f -> f.arn().equals(targetArn) || targetArn.startsWith(f.arn() + ":"))
                .map(LocalFunction::logicalId)
                .findFirst();
        return new LocalSchedule(
                resource.logicalId(),
                props.path("ScheduleExpression").asText(),
                props.path("ScheduleExpressionTimezone").asText("Etc/UTC"),
                function,
                target.path("Input").asText(""),
                !"DISABLED".equals(props.path("State").asText("ENABLED")));
    }

    /** Functions of the template by logical id, in template order. */
    Map<String, LocalFunction> functions(List<Resource> resources) {
        Map<String, LocalFunction> out = new LinkedHashMap<>();
        resources.stream()
                .filter(r -> r.type().equals("AWS::Lambda::Function"))
                .forEach(r -> out.put(r.logicalId(), function(r)));
        return out;
    }
}
