package com.example.quickstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureClassifier;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

/** The write Revenue commits with its claim (the table is REVENUE_TABLE, set by the build's surefire configuration). */
class RevenueTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock CLOCK = Clock.systemUTC();
    private static final EffectContext CONTEXT =
            new EffectContext(new IdempotencyKey("revenue", "order-1"), 1, 1, "message-1", CLOCK.instant(), CLOCK);
    private static final FailureClassifier CLASSIFIER = FailureClassifier.defaults();

    @Test
    void addsTheAmountToTheCustomersCounter() throws Exception {
        JsonNode order = JSON.readTree("{\"orderId\": \"order-1\", \"customer\": \"c-1\", \"amountCents\": 1250}");

        List<TransactWriteItem> writes = Revenue.add(order, CONTEXT);

        assertEquals(1, writes.size());
        Update update = writes.get(0).update();
        assertEquals("revenue", update.tableName());
        assertEquals(Map.of("pk", AttributeValue.fromS("revenue#c-1")), update.key());
        assertEquals("ADD totalCents :amount", update.updateExpression());
        assertEquals(Map.of(":amount", AttributeValue.fromN("1250")), update.expressionAttributeValues());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"orderId\": \"order-1\", \"customer\": \"c-1\"}",
                "{\"orderId\": \"order-1\", \"customer\": \"c-1\", \"amountCents\": \"1250\"}",
                "{\"orderId\": \"order-1\", \"customer\": \"c-1\", \"amountCents\": 12.5}",
                "{\"orderId\": \"order-1\", \"amountCents\": 1250}",
                "{\"orderId\": \"order-1\", \"customer\": 7, \"amountCents\": 1250}"
            })
    void anOrderWithoutAStringCustomerAndAnIntegerAmountIsASchemaFailure(String body) throws Exception {
        JsonNode order = JSON.readTree(body);

        Exception thrown = assertThrows(Exception.class, () -> Revenue.add(order, CONTEXT));

        assertEquals(FailureClass.SCHEMA, CLASSIFIER.classify(thrown).failureClass());
    }
}
