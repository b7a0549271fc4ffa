package dev.redrive.cdk.consumer;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.services.events.IRule;
import software.amazon.awscdk.services.iam.AddToResourcePolicyResult;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sqs.IQueue;

/**
 * Admits an AWS service as a producer of a consumer's KMS-encrypted source queue: an SNS topic's subscription or an
 * EventBridge rule's target. Both policies must let the service in, or its deliveries are lost without an error to the
 * publisher: the queue policy ({@code sqs:SendMessage} for the service principal) and the key policy
 * ({@code kms:GenerateDataKey*} and {@code kms:Decrypt}: the service encrypts what it sends with the queue's key; SQS's
 * "Key management" documentation, "Enable compatibility between event sources from AWS services and encrypted
 * queues"). Each statement holds only for the one topic or rule ({@code aws:SourceArn}).
 */
public final class QueueProducers {

    /** SNS's service principal. */
    public static final String SNS = "sns.amazonaws.com";
    /** EventBridge's service principal. */
    public static final String EVENTBRIDGE = "events.amazonaws.com";
    /** What a producing service may do with the queue's key. */
    public static final List<String> KEY_ACTIONS = List.of("kms:GenerateDataKey*", "kms:Decrypt");

    private QueueProducers() {}

    /** Admits {@code topic}'s deliveries to {@code consumer}'s source queue. */
    public static void admitSnsTopic(IIdempotentConsumer consumer, ITopic topic) {
        admit(consumer, SNS, topic.getTopicArn());
    }

    /** Admits {@code rule}'s events to {@code consumer}'s source queue (the rule's target is the team's to add). */
    public static void admitEventBridgeRule(IIdempotentConsumer consumer, IRule rule) {
        admit(consumer, EVENTBRIDGE, rule.getRuleArn());
    }

    private static void admit(IIdempotentConsumer consumer, String service, String sourceArn) {
        IQueue queue = consumer.sourceQueue();
        Map<String, Object> onlyThisSource = Map.of("ArnEquals", Map.of("aws:SourceArn", sourceArn));
        AddToResourcePolicyResult queuePolicy = queue.addToResourcePolicy(PolicyStatement.Builder.create()
                .principals(List.of(new ServicePrincipal(service)))
                .actions(List.of("sqs:SendMessage"))
                .resources(List.of(queue.getQueueArn()))
                .conditions(onlyThisSource)
                .build());
        if (!queuePolicy.getStatementAdded()) {
            throw new IllegalArgumentException("the source queue " + consumer.sourceQueueName() + " of consumer "
                    + consumer.name() + " is imported, so its queue policy cannot be changed here: allow "
                    + "sqs:SendMessage to " + service + " with aws:SourceArn " + sourceArn + " where it is defined");
        }
        IKey key = queue.getEncryptionMasterKey();
        if (key == null) {
            return; // SSE-SQS or no encryption: the service needs no key
        }
        AddToResourcePolicyResult keyPolicy = key.addToResourcePolicy(PolicyStatement.Builder.create()
                .principals(List.of(new ServicePrincipal(service)))
                .actions(KEY_ACTIONS)
                .resources(List.of("*"))
                .conditions(onlyThisSource)
                .build());
        if (!keyPolicy.getStatementAdded()) {
            throw new IllegalArgumentException("the key of the source queue " + consumer.sourceQueueName() + " of "
                    + "consumer " + consumer.name() + " is imported, so its key policy cannot be changed here: allow "
                    + String.join(", ", KEY_ACTIONS) + " to " + service + " with aws:SourceArn " + sourceArn
                    + " where the key is defined, or its deliveries are lost");
        }
    }
}
