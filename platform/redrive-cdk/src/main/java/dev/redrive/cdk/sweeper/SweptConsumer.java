package dev.redrive.cdk.sweeper;

import dev.redrive.cdk.consumer.IIdempotentConsumer;
import dev.redrive.schema.DeclaredRoute;
import java.util.Objects;

/**
 * One consumer the {@link DlqSweeper} serves, with the route it declares: the sweeper drains the consumer's
 * dead-letter queue and replays to its source queue, checking each replay against the route's contract without the
 * consumer's code.
 *
 * @param consumer the consumer (its queues and function)
 * @param route    its route in the routes document; names the consumer and its two queues as the consumer does
 */
public record SweptConsumer(IIdempotentConsumer consumer, DeclaredRoute route) {

    /** Refuses a route that names another consumer or other queues than the consumer's own. */
    public SweptConsumer {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(route, "route");
        if (!route.consumer().equals(consumer.name())) {
            throw new IllegalArgumentException("the route of consumer " + consumer.name() + " names the consumer "
                    + route.consumer() + ": a replay's idempotency check would look up the wrong claims");
        }
        if (!route.sourceQueue().equals(consumer.sourceQueueName())
                || !route.deadLetterQueue().equals(consumer.deadLetterQueueName())) {
            throw new IllegalArgumentException("the route of consumer " + consumer.name() + " names the queues "
                    + route.sourceQueue() + " and " + route.deadLetterQueue() + ", but the consumer's are "
                    + consumer.sourceQueueName() + " and " + consumer.deadLetterQueueName());
        }
    }
}
