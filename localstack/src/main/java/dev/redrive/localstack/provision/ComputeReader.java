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
 * Reads what the local runner needs from the template's functions, SQS event source mappings and schedules, with
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

    /** The mapping, if its source is one of the template's queues (other sources are not run locally). */
    Optional<LocalEventSourceMapping> eventSourceMapping(
            Resource resource, Map<String, LocalFunction> functions, Map<String, LocalQueue> queues) {
        JsonNode props = resolver.resolve(resource.properties());
        String functionRef = props.path("FunctionName").asText();
        String function = functions.values().stream()
                .filter(f -> f.name().equals(functionRef)
                        || f.arn().equals(functionRef)
                        || functionRef.startsWith(f.arn() + ":"))
                .map(LocalFunction::logicalId)
                .findFirst()
                .orElseThrow(() -> new TemplateException("event source mapping " + resource.logicalId() + " invokes "
                        + functionRef + ", which is not a function of the template"));
        String sourceArn = props.path("EventSourceArn").asText();
        Optional<String> queue = queues.values().stream()
                .filter(q -> q.arn().equals(sourceArn))
                .map(LocalQueue::logicalId)
                .findFirst();
        List<String> responseTypes = new ArrayList<>();
        props.path("FunctionResponseTypes").forEach(t -> responseTypes.add(t.asText()));
        JsonNode concurrency = props.path("ScalingConfig").path("MaximumConcurrency");
        return queue.map(q -> new LocalEventSourceMapping(
                resource.logicalId(),
                function,
                q,
                props.path("BatchSize").asInt(10),
                Duration.ofSeconds(props.path("MaximumBatchingWindowInSeconds").asLong(0)),
                concurrency.isMissingNode() ? Optional.empty() : Optional.of(concurrency.asInt()),
                responseTypes,
                props.path("Enabled").asBoolean(true)));
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
