package dev.redrive.cdk.function;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.dynamodb.CfnTable;
import software.amazon.awscdk.services.sqs.CfnQueue;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * Lambda refuses a function whose environment variables, keys and values together, exceed 4 KB. Values that hold
 * tokens (queue URLs, generated table names, ARNs) are only known at deploy, so the synth bounds them: each reference
 * at the longest it can be (the longest region and partition names, the queue's own name, the generated name's
 * pattern), so a stack that passes here cannot fail on the limit when deployed in any region.
 */
public final class EnvironmentSize {

    /** Lambda's limit on all environment variables of a function, in bytes. */
    public static final int LAMBDA_LIMIT = 4096;

    private static final int REGION = "ap-southeast-3".length();
    private static final int ACCOUNT = 12;
    private static final int PARTITION = "aws-us-gov".length();
    private static final int URL_SUFFIX = "amazonaws.com.cn".length();
    private static final int UNKNOWN = 256;

    private final Stack stack;
    private final Map<String, CfnResource> byLogicalId = new HashMap<>();

    private EnvironmentSize(Construct scope) {
        this.stack = Stack.of(scope);
        for (IConstruct c : stack.getNode().findAll()) {
            if (c instanceof CfnResource r) {
                byLogicalId.put(String.valueOf(stack.resolve(r.getLogicalId())), r);
            }
        }
    }

    /** The most bytes {@code environment} can take once deployed. */
    public static int upperBound(Construct scope, Map<String, String> environment) {
        EnvironmentSize size = new EnvironmentSize(scope);
        return environment.entrySet().stream()
                .mapToInt(e -> utf8(e.getKey()) + size.bound(e.getValue()))
                .sum();
    }

    /** The most bytes one value can take once deployed. */
    public static int upperBound(Construct scope, String value) {
        return new EnvironmentSize(scope).bound(value);
    }

    /**
     * Throws {@link IllegalArgumentException} naming {@code function} and {@code hint} when {@code environment} could
     * pass the limit.
     */
    public static void requireWithinLimit(
            Construct scope, String function, Map<String, String> environment, String hint) {
        int bound = upperBound(scope, environment);
        if (bound > LAMBDA_LIMIT) {
            throw new IllegalArgumentException("the environment of function " + function + " may reach " + bound
                    + " bytes (every generated name and ARN at its longest), over Lambda's 4 KB limit ("
                    + LAMBDA_LIMIT + " bytes) for all its variables together" + (hint.isEmpty() ? "" : ". " + hint));
        }
    }

    private int bound(String value) {
        return bound(stack.resolve(value));
    }

    private int bound(Object resolved) {
        if (resolved == null) {
            return 0;
        }
        if (resolved instanceof String s) {
            return utf8(s);
        }
        if (resolved instanceof Number || resolved instanceof Boolean) {
            return utf8(resolved.toString());
        }
        if (resolved instanceof Map<?, ?> map && map.size() == 1) {
            Map.Entry<?, ?> intrinsic = map.entrySet().iterator().next();
            String function = String.valueOf(intrinsic.getKey());
            Object args = intrinsic.getValue();
            if (function.equals("Fn::Join") && args instanceof List<?> join && join.size() == 2) {
                List<?> parts = (List<?>) join.get(1);
                int separators = utf8(String.valueOf(join.get(0))) * Math.max(0, parts.size() - 1);
                return separators + parts.stream().mapToInt(this::bound).sum();
            }
            if (function.equals("Ref")) {
                return ref(String.valueOf(args));
            }
            if (function.equals("Fn::GetAtt") && args instanceof List<?> att && att.size() == 2) {
                return attribute(String.valueOf(att.get(0)), String.valueOf(att.get(1)));
            }
        }
        return UNKNOWN;
    }

    private int ref(String id) {
        switch (id) {
            case "AWS::Region":
                return REGION;
            case "AWS::AccountId":
                return ACCOUNT;
            case "AWS::Partition":
                return PARTITION;
            case "AWS::URLSuffix":
                return URL_SUFFIX;
            default:
                break;
        }
        CfnResource r = byLogicalId.get(id);
        if (r == null) {
            return UNKNOWN;
        }
        return switch (r.getCfnResourceType()) {
            // https://sqs.<region>.<url suffix>/<account>/<name>
            case "AWS::SQS::Queue" ->
                "https://sqs.".length() + REGION + 1 + URL_SUFFIX + 1 + ACCOUNT + 1 + queueName(r);
            case "AWS::DynamoDB::Table" -> tableName(r, id);
            case "AWS::S3::Bucket" -> 63;
            default -> UNKNOWN;
        };
    }

    private int attribute(String id, String attribute) {
        CfnResource r = byLogicalId.get(id);
        if (r == null || !attribute.equals("Arn")) {
            return UNKNOWN;
        }
        int arnPrefix = "arn:".length() + PARTITION + 1 + 1 + REGION + 1 + ACCOUNT + 1; // arn:p:<service>:r:a:
        return switch (r.getCfnResourceType()) {
            case "AWS::SQS::Queue" -> arnPrefix + "sqs".length() + queueName(r);
            case "AWS::DynamoDB::Table" -> arnPrefix + "dynamodb".length() + "table/".length() + tableName(r, id);
            case "AWS::KMS::Key" -> arnPrefix + "kms".length() + "key/".length() + 36;
            default -> UNKNOWN;
        };
    }

    private int queueName(CfnResource r) {
        String name = r instanceof CfnQueue q ? q.getQueueName() : null;
        return name == null ? 80 : utf8(name);
    }

    /** An explicit name, or CloudFormation's {@code <stack>-<logical id>-<12 or 13 characters>}. */
    private int tableName(CfnResource r, String logicalId) {
        String name = r instanceof CfnTable t ? t.getTableName() : null;
        if (name != null) {
            return utf8(name);
        }
        return Math.min(255, utf8(stack.getStackName()) + 1 + utf8(logicalId) + 1 + 13);
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
