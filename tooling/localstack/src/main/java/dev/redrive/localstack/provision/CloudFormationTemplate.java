package dev.redrive.localstack.provision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CloudFormation template (JSON), as the CDK synthesizes it: its resources in template order, their references to
 * each other, and an order to create them in where every resource comes after those it refers to.
 */
public final class CloudFormationTemplate {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^!}][^}]*)}");

    private final JsonNode root;
    private final Map<String, Resource> resources = new LinkedHashMap<>();

    private CloudFormationTemplate(JsonNode root) {
        this.root = root;
        JsonNode section = root.path("Resources");
        if (!section.isObject() || section.isEmpty()) {
            throw new TemplateException("the template has no Resources section");
        }
        section.properties()
                .forEach(e -> resources.put(
                        e.getKey(),
                        new Resource(
                                e.getKey(),
                                e.getValue().path("Type").asText(),
                                e.getValue().path("Properties"),
                                e.getValue())));
    }

    /** Reads a template file. */
    public static CloudFormationTemplate read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new TemplateException("cannot read the template " + file + ": " + e.getMessage(), e);
        }
    }

    /** Parses template JSON. */
    public static CloudFormationTemplate parse(String json) {
        try {
            return new CloudFormationTemplate(JSON.readTree(json));
        } catch (IOException e) {
            throw new TemplateException("the template is not JSON: " + e.getMessage(), e);
        }
    }

    /** Every resource by logical id, in template order. */
    public Map<String, Resource> resources() {
        return Collections.unmodifiableMap(resources);
    }

    /** The {@code Mappings} section (empty when absent), for {@code Fn::FindInMap}. */
    JsonNode mappings() {
        return root.path("Mappings");
    }

    /** The default of a parameter, for a {@code Ref} to it. */
    JsonNode parameterDefault(String name) {
        JsonNode parameter = root.path("Parameters").path(name);
        return parameter.isMissingNode()
                ? null
                : parameter.path("Default").isMissingNode() ? NullNode.getInstance() : parameter.path("Default");
    }

    /** The resources, each after every resource it refers to ({@code Ref}, {@code Fn::GetAtt}, {@code Fn::Sub}, DependsOn). */
    public List<Resource> creationOrder() {
        Map<String, Set<String>> dependencies = new LinkedHashMap<>();
        resources.values().forEach(r -> dependencies.put(r.logicalId(), dependenciesOf(r)));
        List<Resource> order = new ArrayList<>();
        Set<String> done = new LinkedHashSet<>();
        for (String id : resources.keySet()) {
            visit(id, dependencies, done, new ArrayDeque<>(), order);
        }
        return order;
    }

    private void visit(
            String id,
            Map<String, Set<String>> dependencies,
            Set<String> done,
            Deque<String> path,
            List<Resource> order) {
        if (done.contains(id)) {
            return;
        }
        if (path.contains(id)) {
            throw new TemplateException("circular reference between resources: " + path + " -> " + id);
        }
        path.push(id);
        for (String dependency : dependencies.get(id)) {
            visit(dependency, dependencies, done, path, order);
        }
        path.pop();
        done.add(id);
        order.add(resources.get(id));
    }

    private Set<String> dependenciesOf(Resource resource) {
        Set<String> out = new LinkedHashSet<>();
        collectReferences(resource.properties(), out);
        JsonNode dependsOn = resource.definition().path("DependsOn");
        if (dependsOn.isTextual()) {
            out.add(dependsOn.asText());
        } else {
            dependsOn.forEach(d -> out.add(d.asText()));
        }
        out.retainAll(resources.keySet());
        out.remove(resource.logicalId());
        return out;
    }

    private static void collectReferences(JsonNode node, Set<String> out) {
        if (node.isObject()) {
            if (node.size() == 1 && node.has("Ref")) {
                out.add(node.get("Ref").asText());
            } else if (node.size() == 1 && node.has("Fn::GetAtt")) {
                JsonNode args = node.get("Fn::GetAtt");
                out.add(args.isArray() ? args.path(0).asText() : args.asText().split("\\.", 2)[0]);
            } else if (node.size() == 1 && node.has("Fn::Sub")) {
                JsonNode args = node.get("Fn::Sub");
                String text = args.isArray() ? args.path(0).asText() : args.asText();
                Matcher m = SUB_VARIABLE.matcher(text);
                while (m.find()) {
                    out.add(m.group(1).split("\\.", 2)[0]);
                }
                if (args.isArray()) {
                    collectReferences(args.path(1), out);
                }
                return;
            }
            for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
                collectReferences(it.next(), out);
            }
        } else if (node.isArray()) {
            node.forEach(child -> collectReferences(child, out));
        }
    }

    /**
     * One resource of the template.
     *
     * @param logicalId  its logical id
     * @param type       its type, e.g. {@code AWS::SQS::Queue}
     * @param properties its Properties (a missing node when it has none)
     * @param definition the whole resource entry (Type, Properties, DependsOn, ...)
     */
    public record Resource(String logicalId, String type, JsonNode properties, JsonNode definition) {}
}
