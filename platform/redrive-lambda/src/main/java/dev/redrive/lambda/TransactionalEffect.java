package dev.redrive.lambda;

import dev.redrive.core.consumer.EffectContext;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * An effect that is a DynamoDB write: its writes commit in one {@code TransactWriteItems} with the claim and its
 * completion, so it is exactly once even when the write itself is not idempotent (a counter increment). DynamoDB
 * takes up to 100 items in a transaction, two of them the claim's.
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface TransactionalEffect<E> {

    /**
     * The writes of the effect, for one transaction attempt with that attempt's fencing token; no side effects of its
     * own (it may be called again).
     */
    List<TransactWriteItem> writes(E event, EffectContext context);
}
