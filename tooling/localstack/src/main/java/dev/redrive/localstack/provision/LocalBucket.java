package dev.redrive.localstack.provision;

/**
 * An S3 bucket created locally from the template.
 *
 * @param logicalId its logical id in the template
 * @param name      its bucket name
 */
public record LocalBucket(String logicalId, String name) {}
