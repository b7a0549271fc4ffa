package dev.redrive.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import software.amazon.awscdk.assertions.Template;

/** Read access to a synthesized template as plain maps, with the look-ups the tests share. */
final class TemplateView {

    private final Template template;
    private final Map<String, Object> json;

    TemplateView(Template template) {
        this.template = template;
        this.json = template.toJSON();
    }

    Template template() {
        return template;
    }

    /** Resources of one type by logical id. */
    Map<String, Map<String, Object>> resources(String type) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        map(json, "Resources").forEach((id, r) -> {
            Map<String, Object> resource = cast(r);
            if (type.equals(resource.get("Type"))) {
                out.put(id, resource);
            }
        });
        return out;
    }

    Map<String, Object> resource(String logicalId) {
        Map<String, Object> resource = cast(map(json, "Resources").get(logicalId));
        assertThat(resource).as("resource " + logicalId).isNotNull();
        return resource;
    }

    Map<String, Object> properties(String logicalId) {
        return map(resource(logicalId), "Properties");
    }

    /** The logical id of the queue with this explicit QueueName. */
    String queue(String name) {
        return resources("AWS::SQS::Queue").entrySet().stream()
                .filter(e -> name.equals(map(e.getValue(), "Properties").get("QueueName")))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no queue named " + name));
    }

    /** The logical id of the table made with this construct id ({@code ClaimsTable}); table names are generated. */
    String table(String constructId) {
        List<String> ids = resources("AWS::DynamoDB::Table").keySet().stream()
                .filter(id -> id.matches(Pattern.quote(constructId) + "[0-9A-F]{8}"))
                .toList();
        assertThat(ids).as("tables made as " + constructId).hasSize(1);
        return ids.get(0);
    }

    /** The logical id of the function whose QUARKUS_LAMBDA_HANDLER is {@code handler}. */
    String function(String handler) {
        return resources("AWS::Lambda::Function").entrySet().stream()
                .filter(e -> handler.equals(handlerOf(e.getKey())))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no function with handler " + handler));
    }

    /** The logical id of the {@code live} alias of the function {@code functionId} (the JVM runtime's). */
    String alias(String functionId) {
        return resources("AWS::Lambda::Alias").entrySet().stream()
                .filter(e -> Map.of("Ref", functionId)
                        .equals(map(e.getValue(), "Properties").get("FunctionName")))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no alias of " + functionId));
    }

    /**
     * A mapping's {@code FunctionName} when it invokes the alias of {@code functionId}: CDK takes the function name
     * from the alias's ARN and appends {@code :live}.
     */
    Map<String, Object> invokedName(String functionId) {
        return Map.of(
                "Fn::Join",
                List.of(
                        "",
                        List.of(
                                Map.of(
                                        "Fn::Select",
                                        List.of(
                                                6,
                                                Map.of("Fn::Split", List.of(":", Map.of("Ref", alias(functionId)))))),
                                ":live")));
    }

    /** The function a mapping's {@code FunctionName} invokes, through its alias or directly. */
    String invokedFunction(Object functionName) {
        return functionIds().stream()
                .filter(id -> Map.of("Ref", id).equals(functionName)
                        || (!resources("AWS::Lambda::Alias").isEmpty()
                                && resources("AWS::Lambda::Alias").values().stream()
                                        .anyMatch(a -> Map.of("Ref", id)
                                                .equals(map(a, "Properties").get("FunctionName")))
                                && invokedName(id).equals(functionName)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no function is invoked as " + functionName));
    }

    Map<String, Object> environment(String functionId) {
        return map(map(properties(functionId), "Environment"), "Variables");
    }

    /** Every Allow statement of the identity policies attached to the function's role. */
    List<Statement> statementsOf(String functionId) {
        List<?> roleRef = (List<?>) map(properties(functionId), "Role").get("Fn::GetAtt");
        return statementsOfRole((String) roleRef.get(0));
    }

    List<Statement> statementsOfRole(String roleId) {
        List<Statement> statements = new ArrayList<>();
        resources("AWS::IAM::Policy").values().forEach(policy -> {
            Map<String, Object> props = map(policy, "Properties");
            if (String.valueOf(props.get("Roles")).contains(roleId)) {
                for (Object s : (List<?>) map(props, "PolicyDocument").get("Statement")) {
                    Map<String, Object> statement = cast(s);
                    assertThat(statement.get("Effect")).isEqualTo("Allow");
                    statements.add(new Statement(list(statement.get("Action")), list(statement.get("Resource"))));
                }
            }
        });
        return statements;
    }

    /**
     * Logical ids of the project's Lambda functions (those with a {@code QUARKUS_LAMBDA_HANDLER}); CDK's own handler of
     * the routes document's {@code BucketDeployment} is not one of them.
     */
    List<String> functionIds() {
        return resources("AWS::Lambda::Function").keySet().stream()
                .filter(id -> handlerOf(id) != null)
                .collect(java.util.stream.Collectors.toCollection(ArrayList::new));
    }

    /** The function's QUARKUS_LAMBDA_HANDLER, or null (a function without it, or without an environment). */
    private Object handlerOf(String functionId) {
        Object env = properties(functionId).get("Environment");
        return env instanceof Map<?, ?> e && e.get("Variables") instanceof Map<?, ?> v
                ? v.get("QUARKUS_LAMBDA_HANDLER")
                : null;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cast(Object value) {
        return (Map<String, Object>) value;
    }

    static Map<String, Object> map(Map<String, Object> parent, String key) {
        Map<String, Object> child = cast(parent.get(key));
        assertThat(child).as(key).isNotNull();
        return child;
    }

    private static List<Object> list(Object value) {
        return value instanceof List<?> l ? new ArrayList<>(l) : List.of(value);
    }

    /** One IAM statement: its actions (possibly with wildcards) and resources (as template values). */
    record Statement(List<Object> actions, List<Object> resources) {

        /** Whether this statement allows {@code action}, wildcards included. */
        boolean allows(String action) {
            return actions.stream()
                    .map(Object::toString)
                    .anyMatch(a -> glob(a).matcher(action).matches());
        }

        /** Whether any resource refers to {@code logicalId}. */
        boolean on(String logicalId) {
            return String.valueOf(resources).contains(logicalId);
        }

        private static Pattern glob(String pattern) {
            return Pattern.compile(Pattern.quote(pattern).replace("*", "\\E.*\\Q"), Pattern.CASE_INSENSITIVE);
        }
    }
}
