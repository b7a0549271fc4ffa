package dev.redrive.localstack.provision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.localstack.provision.CloudFormationTemplate.Resource;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueNameExistsException;

/**
 * Creates an {@code AWS::SQS::Queue} with the attributes that shape delivery: visibility timeout, retention, delay,
 * long-poll wait, size, redrive policy (its {@code deadLetterTargetArn} resolved to the local DLQ), redrive-allow
 * policy, FIFO and content-based deduplication. Encryption settings (KMS) are ignored: the local SQS does not
 * encrypt. Creating a queue that exists updates its attributes instead.
 */
final class QueueProvisioner {

    private static final Map<String, QueueAttributeName> ATTRIBUTES = Map.ofEntries(
            Map.entry("VisibilityTimeout", QueueAttributeName.VISIBILITY_TIMEOUT),
            Map.entry("MessageRetentionPeriod", QueueAttributeName.MESSAGE_RETENTION_PERIOD),
            Map.entry("DelaySeconds", QueueAttributeName.DELAY_SECONDS),
            Map.entry("ReceiveMessageWaitTimeSeconds", QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS),
            Map.entry("MaximumMessageSize", QueueAttributeName.MAXIMUM_MESSAGE_SIZE),
            Map.entry("RedrivePolicy", QueueAttributeName.REDRIVE_POLICY),
            Map.entry("RedriveAllowPolicy", QueueAttributeName.REDRIVE_ALLOW_POLICY),
            Map.entry("FifoQueue", QueueAttributeName.FIFO_QUEUE),
            Map.entry("ContentBasedDeduplication", QueueAttributeName.CONTENT_BASED_DEDUPLICATION));

    private final SqsClient sqs;
    private final IntrinsicResolver resolver;
    private final ResourceRegistry registry;

    QueueProvisioner(SqsClient sqs, IntrinsicResolver resolver, ResourceRegistry registry) {
        this.sqs = sqs;
        this.resolver = resolver;
        this.registry = registry;
    }

    LocalQueue create(Resource resource) {
        JsonNode props = resolver.resolve(resource.properties());
        boolean fifo = props.path("FifoQueue").asBoolean(false);
        String name = registry.physicalName(resource, "QueueName");
        if (fifo && !name.endsWith(".fifo")) {
            name = name.substring(0, Math.min(name.length(), 75)) + ".fifo";
        }
        Map<QueueAttributeName, String> attributes = new LinkedHashMap<>();
        ATTRIBUTES.forEach((property, attribute) -> {
            JsonNode value = props.path(property);
            if (!value.isMissingNode() && !value.isNull()) {
                attributes.put(attribute, value.isValueNode() ? value.asText() : value.toString());
            }
        });
        String queueName = name;
        String url;
        try {
            url = sqs.createQueue(b -> b.queueName(queueName).attributes(attributes))
                    .queueUrl();
        } catch (QueueNameExistsException e) {
            url = sqs.getQueueUrl(b -> b.queueName(queueName)).queueUrl();
            String existing = url;
            Map<QueueAttributeName, String> changeable = new LinkedHashMap<>(attributes);
            changeable.remove(QueueAttributeName.FIFO_QUEUE);
            sqs.setQueueAttributes(b -> b.queueUrl(existing).attributes(changeable));
        }
        String queueUrl = url;
        String arn = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes()
                .get(QueueAttributeName.QUEUE_ARN);
        registry.register(resource.logicalId(), url, Map.of("Arn", arn, "QueueName", name, "QueueUrl", url));
        return new LocalQueue(resource.logicalId(), name, url, arn);
    }
}
