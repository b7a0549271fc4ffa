package dev.redrive.localstack.provision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluates the CloudFormation intrinsic functions the CDK emits, with local values: {@code Ref},
 * {@code Fn::GetAtt}, {@code Fn::Join}, {@code Fn::Sub}, {@code Fn::Select}, {@code Fn::Split}, {@code Fn::FindInMap},
 * {@code Fn::Base64}, and the pseudo parameters. {@code Ref: AWS::NoValue} removes the property. Anything else fails
 * with a {@link TemplateException} naming it.
 */
final class IntrinsicResolver {

    /** Values of resources (and parameters) the template refers to. */
    interface References {
        /** The value of {@code Ref: logicalId}. */
        JsonNode ref(String logicalId);

        /** The value of {@code Fn::GetAtt: [logicalId, attribute]}. */
        JsonNode getAtt(String logicalId, String attribute);
    }

    static final String NO_VALUE = "AWS::NoValue";
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{(!?)([^}]*)}");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final References references;
    private final Map<String, String> pseudoParameters;
    private final JsonNode mappings;

    IntrinsicResolver(References references, Map<String, String> pseudoParameters, JsonNode mappings) {
        this.references = references;
        this.pseudoParameters = Map.copyOf(pseudoParameters);
        this.mappings = mappings;
    }

    /** The node with every intrinsic evaluated; a {@link MissingNode} for {@code AWS::NoValue}. */
    JsonNode resolve(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return MissingNode.getInstance();
        }
        if (node.isArray()) {
            ArrayNode out = NODES.arrayNode();
            node.forEach(child -> {
                JsonNode value = resolve(child);
                if (!value.isMissingNode()) {
                    out.add(value);
                }
            });
            return out;
        }
        if (!node.isObject()) {
            return node;
        }
        if (node.size() == 1) {
            String key = node.fieldNames().next();
            if (key.equals("Ref") || key.startsWith("Fn::")) {
                return function(key, node.get(key));
            }
        }
        ObjectNode out = NODES.objectNode();
        node.properties().forEach(e -> {
            JsonNode value = resolve(e.getValue());
            if (!value.isMissingNode()) {
                out.set(e.getKey(), value);
            }
        });
        return out;
    }

    /** The node resolved to text: strings as they are, anything else as JSON. */
    String resolveText(JsonNode node) {
        JsonNode value = resolve(node);
        return value.isValueNode() ? value.asText() : value.toString();
    }

    private JsonNode function(String name, JsonNode args) {
        return switch (name) {
            case "Ref" -> ref(args.asText());
            case "Fn::GetAtt" -> getAtt(args);
            case "Fn::Join" -> join(args);
            case "Fn::Sub" -> sub(args);
            case "Fn::Select" -> select(args);
            case "Fn::Split" -> split(args);
            case "Fn::FindInMap" -> findInMap(args);
            case "Fn::Base64" ->
                TextNode.valueOf(
                        Base64.getEncoder().encodeToString(resolveText(args).getBytes(StandardCharsets.UTF_8)));
            default ->
                throw new TemplateException(
                        "the intrinsic function " + name + " is not supported locally "
                                + "(supported: Ref, Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select, Fn::Split, Fn::FindInMap, Fn::Base64)");
        };
    }

    private JsonNode ref(String target) {
        if (target.equals(NO_VALUE)) {
            return MissingNode.getInstance();
        }
        String pseudo = pseudoParameters.get(target);
        if (pseudo != null) {
            return TextNode.valueOf(pseudo);
        }
        if (target.startsWith("AWS::")) {
            throw new TemplateException("the pseudo parameter " + target + " has no local value");
        }
        return references.ref(target);
    }

    private JsonNode getAtt(JsonNode args) {
        String logicalId;
        String attribute;
        if (args.isArray()) {
            logicalId = args.path(0).asText();
            attribute = resolveText(args.path(1));
        } else {
            String[] parts = args.asText().split("\\.", 2);
            if (parts.length != 2) {
                throw new TemplateException("Fn::GetAtt '" + args.asText() + "' is not LogicalId.Attribute");
            }
            logicalId = parts[0];
            attribute = parts[1];
        }
        return references.getAtt(logicalId, attribute);
    }

    private JsonNode join(JsonNode args) {
        String delimiter = args.path(0).asText();
        JsonNode values = resolve(args.path(1));
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(delimiter);
            }
            JsonNode value = values.get(i);
            out.append(value.isValueNode() ? value.asText() : value.toString());
        }
        return TextNode.valueOf(out.toString());
    }

    private JsonNode sub(JsonNode args) {
        String text = args.isArray() ? args.path(0).asText() : args.asText();
        JsonNode variables = args.isArray() ? resolve(args.path(1)) : MissingNode.getInstance();
        Matcher m = SUB_VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement;
            if (!m.group(1).isEmpty()) {
                replacement = "${" + m.group(2) + "}";
            } else if (variables.has(m.group(2))) {
                replacement = variables.get(m.group(2)).asText();
            } else if (m.group(2).contains(".") && !m.group(2).startsWith("AWS::")) {
                String[] parts = m.group(2).split("\\.", 2);
                replacement = references.getAtt(parts[0], parts[1]).asText();
            } else {
                replacement = ref(m.group(2)).asText();
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return TextNode.valueOf(out.toString());
    }

    private JsonNode select(JsonNode args) {
        int index = Integer.parseInt(resolveText(args.path(0)));
        JsonNode list = resolve(args.path(1));
        if (!list.isArray() || index < 0 || index >= list.size()) {
            throw new TemplateException("Fn::Select index " + index + " is outside " + list);
        }
        return list.get(index);
    }

    private JsonNode split(JsonNode args) {
        String delimiter = args.path(0).asText();
        if (delimiter.isEmpty()) {
            throw new TemplateException("Fn::Split needs a non-empty delimiter: " + args);
        }
        String source = resolveText(args.path(1));
        ArrayNode out = NODES.arrayNode();
        int start = 0;
        int at;
        while ((at = source.indexOf(delimiter, start)) >= 0) {
            out.add(source.substring(start, at));
            start = at + delimiter.length();
        }
        out.add(source.substring(start));
        return out;
    }

    private JsonNode findInMap(JsonNode args) {
        JsonNode value = mappings.path(resolveText(args.path(0)))
                .path(resolveText(args.path(1)))
                .path(resolveText(args.path(2)));
        if (value.isMissingNode()) {
            throw new TemplateException("Fn::FindInMap " + args + " finds nothing in the Mappings section");
        }
        return value;
    }
}
