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
}
