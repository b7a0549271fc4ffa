package dev.redrive.localstack.provision;

import java.util.Optional;

/**
 * A DynamoDB table created locally from the template.
 *
 * @param logicalId its logical id in the template
 * @param name      its table name
 * @param arn       its local ARN
 * @param streamArn its stream's ARN, when the template enables one
 */
public record LocalTable(String logicalId, String name, String arn, Optional<String> streamArn) {}
