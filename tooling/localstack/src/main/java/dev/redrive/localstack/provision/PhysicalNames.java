package dev.redrive.localstack.provision;

import java.util.Locale;
import java.util.Map;

/**
 * Names for resources whose template gives none: {@code <stack>-<logicalId>}, lower case, with characters the service
 * refuses replaced by dashes and cut to its length limit. Stable: the same template gives the same names every time.
 */
final class PhysicalNames {

    private static final Map<String, Integer> MAX_LENGTH = Map.of(
            "AWS::S3::Bucket",
            63,
            "AWS::SQS::Queue",
            80,
            "AWS::DynamoDB::Table",
            255,
            "AWS::Lambda::Function",
            64,
            "AWS::IAM::Role",
            64);

    private PhysicalNames() {}

    static String generate(String stackName, String logicalId, String type) {
        String name = (stackName + "-" + logicalId)
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9-]", "-")
                .replaceAll("-{2,}", "-")
                .replaceAll("^-|-$", "");
        int max = MAX_LENGTH.getOrDefault(type, 64);
        return name.length() <= max ? name : name.substring(0, max).replaceAll("-$", "");
    }
}
