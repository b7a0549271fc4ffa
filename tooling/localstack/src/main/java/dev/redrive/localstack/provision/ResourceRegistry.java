package dev.redrive.localstack.provision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.redrive.localstack.provision.CloudFormationTemplate.Resource;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The local values of {@code Ref} and {@code Fn::GetAtt} for every resource of a template. Resources created locally
 * (queues, tables, buckets) register their real values; the others (keys, roles, functions, topics, log groups ...)
 * get stable made-up names and ARNs in the local account and region, e.g. a KMS key
 * {@code arn:aws:kms:us-east-1:000000000000:key/<uuid derived from stack and logical id>}.
 */
final class ResourceRegistry implements IntrinsicResolver.References {

    private static final Map<String, String> NAME_PROPERTY = Map.of(
            "AWS::Lambda::Function",
            "FunctionName",
            "AWS::IAM::Role",
            "RoleName",
            "AWS::SNS::Topic",
            "TopicName",
            "AWS::Logs::LogGroup",
            "LogGroupName",
            "AWS::CloudWatch::Alarm",
            "AlarmName",
            "AWS::Scheduler::Schedule",
            "Name",
            "AWS::CloudWatch::Dashboard",
            "DashboardName");

    private final CloudFormationTemplate template;
    private final String stackName;
    private final String region;
    private final String account;
    private final Map<String, Registered> registered = new HashMap<>();
    private IntrinsicResolver resolver;

    ResourceRegistry(CloudFormationTemplate template, String stackName, String region, String account) {
        this.template = template;
        this.stackName = stackName;
        this.region = region;
        this.account = account;
    }

    /** The resolver these references serve (set once, right after construction). */
    void resolver(IntrinsicResolver value) {
        this.resolver = value;
    }

    /** Records the local values of a created resource. */
    void register(String logicalId, String ref, Map<String, String> attributes) {
        registered.put(logicalId, new Registered(ref, Map.copyOf(attributes)));
    }

    /** The name a resource gets: its explicit name property if the template sets one, else a generated one. */
    String physicalName(Resource resource, String nameProperty) {
        JsonNode explicit = resource.properties().path(nameProperty);
        if (!explicit.isMissingNode()) {
            return resolver.resolveText(explicit);
        }
        return PhysicalNames.generate(stackName, resource.logicalId(), resource.type());
    }

    @Override
    public JsonNode ref(String logicalId) {
        JsonNode parameter = template.parameterDefault(logicalId);
        if (parameter != null && !template.resources().containsKey(logicalId)) {
            return parameter;
        }
        return TextNode.valueOf(values(logicalId).ref());
    }

    @Override
    public JsonNode getAtt(String logicalId, String attribute) {
        Registered values = values(logicalId);
        String value = values.attributes().get(attribute);
        if (value == null) {
            throw new TemplateException("Fn::GetAtt " + logicalId + "." + attribute + " has no local value (known: "
                    + values.attributes().keySet() + ")");
        }
        return TextNode.valueOf(value);
    }

    private Registered values(String logicalId) {
        Registered values = registered.get(logicalId);
        if (values != null) {
            return values;
        }
        Resource resource = template.resources().get(logicalId);
        if (resource == null) {
            throw new TemplateException(
                    "the template refers to " + logicalId + ", which is neither a resource nor a " + "parameter of it");
        }
        values = madeUp(resource);
        registered.put(logicalId, values);
        return values;
    }

    private Registered madeUp(Resource resource) {
        String name = physicalName(resource, NAME_PROPERTY.getOrDefault(resource.type(), "Name"));
        String service = resource.type().split("::")[1].toLowerCase(Locale.ROOT);
        String prefix = "arn:aws:" + service + ":" + region + ":" + account + ":";
        return switch (resource.type()) {
            case "AWS::KMS::Key" -> {
                String id = UUID.nameUUIDFromBytes(
                                (stackName + "/" + resource.logicalId()).getBytes(StandardCharsets.UTF_8))
                        .toString();
                String arn = prefix + "key/" + id;
                yield new Registered(id, Map.of("Arn", arn, "KeyId", id));
            }
            case "AWS::IAM::Role" ->
                new Registered(
                        name,
                        Map.of(
                                "Arn",
                                "arn:aws:iam::" + account + ":role/" + name,
                                "RoleId",
                                "AROA" + Integer.toHexString(name.hashCode()).toUpperCase(Locale.ROOT)));
            case "AWS::Lambda::Function" -> new Registered(name, Map.of("Arn", prefix + "function:" + name));
            case "AWS::Lambda::Version" -> {
                // Run locally as the function itself: a published version is the function's code at that moment.
                String function = resolver.resolveText(resource.properties().path("FunctionName"));
                yield new Registered(prefix + "function:" + function + ":1", Map.of("Version", "1"));
            }
            case "AWS::Lambda::Alias" -> {
                // arn:...:function:<name>:<alias>, so what CDK derives from it (the name, the qualifier) resolves.
                String function = resolver.resolveText(resource.properties().path("FunctionName"));
                String arn = prefix + "function:" + function + ":" + name;
                yield new Registered(arn, Map.of("AliasArn", arn));
            }
            case "AWS::SNS::Topic" ->
                new Registered(prefix + name, Map.of("TopicArn", prefix + name, "TopicName", name));
            case "AWS::Logs::LogGroup" -> new Registered(name, Map.of("Arn", prefix + "log-group:" + name + ":*"));
            case "AWS::Scheduler::Schedule" -> new Registered(name, Map.of("Arn", prefix + "schedule/default/" + name));
            default -> new Registered(name, Map.of("Arn", prefix + name));
        };
    }

    private record Registered(String ref, Map<String, String> attributes) {}
}
