package dev.redrive.cdk.consumer;

import java.time.Duration;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.sqs.IQueue;

/**
 * What the rest of Redrive's constructs need of an idempotent consumer, however it was made: its queues, which the
 * sweeper drains and replays to, their retentions, which the claim TTL must cover, and its function. Implemented by
 * {@link AttachedConsumer} (a team's existing queue and function) and {@link IdempotentConsumer} (queues and function
 * created for it).
 */
public interface IIdempotentConsumer {

    /** The consumer's name: the first part of every claim key ({@code <consumer>#<key>}) and of its route. */
    String name();

    /** The queue the function consumes. */
    IQueue sourceQueue();

    /** The source queue's dead-letter queue: where its redrive policy moves a message after its last receive. */
    IQueue deadLetterQueue();

    /** The source queue's name, as a plain string (not a token): the route names the queue by it. */
    String sourceQueueName();

    /** The dead-letter queue's name, as a plain string (not a token). */
    String deadLetterQueueName();

    /** How long the source queue keeps a message. */
    Duration sourceRetention();

    /** How long the dead-letter queue keeps a message; longer than {@link #sourceRetention()}. */
    Duration deadLetterRetention();

    /** The consumer's function. */
    IFunction function();

    /**
     * Lets {@code topic} deliver to the source queue: the queue policy and the queue key's policy admit
     * {@code sns.amazonaws.com} for this topic only ({@link QueueProducers}). The subscription is the caller's; make it
     * with raw message delivery, so the consumer reads the event and not SNS's envelope.
     */
    default void admitSnsTopic(software.amazon.awscdk.services.sns.ITopic topic) {
        QueueProducers.admitSnsTopic(this, topic);
    }

    /**
     * Lets {@code rule} send to the source queue: the queue policy and the queue key's policy admit
     * {@code events.amazonaws.com} for this rule only ({@link QueueProducers}). The target is the caller's; give it the
     * input the consumer reads ({@code RuleTargetInput.fromEventPath("$.detail")} for the event's detail alone).
     */
    default void admitEventBridgeRule(software.amazon.awscdk.services.events.IRule rule) {
        QueueProducers.admitEventBridgeRule(this, rule);
    }
}
