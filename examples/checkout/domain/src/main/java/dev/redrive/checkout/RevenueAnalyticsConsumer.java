package dev.redrive.checkout;

import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.consumer.TransactionalEffectConsumer;
import dev.redrive.core.failure.PermanentFailure;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Adds each order to a daily revenue counter in DynamoDB. The increment ({@code ADD}) is not idempotent; it becomes
 * exactly-once because it commits in the same transaction as the claim and its completion.
 *
 * <p>Counter items: {@code pk = revenue#<day>#<currency>}, attributes {@code amountMinor} and {@code orders}.
 */
public final class RevenueAnalyticsConsumer extends OrderPlacedConsumer
        implements TransactionalEffectConsumer<OrderPlaced, TransactWriteItem> {

    public static final String NAME = CheckoutNames.REVENUE_ANALYTICS;
    public static final String DEPENDENCY = "revenue-store";
    /** The currencies the revenue report is kept in; anything else is a business rule violation. */
    public static final Set<String> CURRENCIES = Set.of("EUR", "USD", "GBP");

    private final String table;

    public RevenueAnalyticsConsumer(OrderPlacedReader reader, String table) {
        super(NAME, DEPENDENCY, reader);
        this.table = table;
    }

    public static String counterKey(String day, String currency) {
        return "revenue#" + day + "#" + currency;
    }

    @Override
    public List<TransactWriteItem> effectWrites(OrderPlaced order, EffectContext context) {
        if (!CURRENCIES.contains(order.currency())) {
            throw new PermanentFailure(
                    "UnsupportedCurrency",
                    "order " + order.orderId() + " is in " + order.currency() + "; revenue is reported in "
                            + CURRENCIES.stream().sorted().toList());
        }
        if (order.amountMinor() < 0) {
            throw new PermanentFailure(
                    "NegativeTotal",
                    "order " + order.orderId() + " has a negative total; refunds are not OrderPlaced events");
        }
        return List.of(TransactWriteItem.builder()
                .update(u -> u.tableName(table)
                        .key(Map.of("pk", AttributeValue.fromS(counterKey(order.day(), order.currency()))))
                        .updateExpression("ADD amountMinor :amount, orders :one")
                        .expressionAttributeValues(Map.of(
                                ":amount", AttributeValue.fromN(Long.toString(order.amountMinor())),
                                ":one", AttributeValue.fromN("1"))))
                .build());
    }

    @Override
    public String resultSummary(OrderPlaced order) {
        return "counted " + order.amountMinor() + " " + order.currency() + " on " + order.day();
    }
}
