package dev.redrive.localstack.provision;

/**
 * A queue created locally from the template.
 *
 * @param logicalId its logical id in the template
 * @param name      its queue name
 * @param url       its local URL
 * @param arn       its local ARN
 */
public record LocalQueue(String logicalId, String name, String url, String arn) {}
