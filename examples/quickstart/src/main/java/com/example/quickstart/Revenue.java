package com.example.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.lambda.JsonMessages;
import dev.redrive.lambda.Redrive;
import dev.redrive.lambda.SqsConsumerHandler;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Adds every order's amount to its customer's revenue counter in the table {@code REVENUE_TABLE}, once per order: the
 * increment commits in one TransactWriteItems with the claim. Handler:
 * {@code com.example.quickstart.Revenue::handleRequest}.
 */
public class Revenue extends SqsConsumerHandler {
    private static final String TABLE = Objects.requireNonNull(System.getenv("REVENUE_TABLE"), "set REVENUE_TABLE");

    public Revenue() {
        this(Redrive.fromEnvironment());
    }

    Revenue(Redrive redrive) { // your own settings and clients: RevenueOnLocalAwsTest passes local AWS's
        super(redrive.transactionalEffect("revenue", JsonMessages.keyAt("/orderId"), Revenue::add));
    }

    static List<TransactWriteItem> add(JsonNode order, EffectContext ctx) {
        JsonNode customer = order.path("customer");
        JsonNode amount = order.path("amountCents");
        if (!customer.isTextual() || !amount.isIntegralNumber()) {
            throw new SchemaViolation("InvalidOrder", "an order needs a string customer and an integer amountCents");
        }
        return List.of(TransactWriteItem.builder()
                .update(u -> u.tableName(TABLE)
                        .key(Map.of("pk", AttributeValue.fromS("revenue#" + customer.textValue())))
                        .updateExpression("ADD totalCents :amount")
                        .expressionAttributeValues(Map.of(":amount", AttributeValue.fromN(amount.asText()))))
                .build());
    }
}
