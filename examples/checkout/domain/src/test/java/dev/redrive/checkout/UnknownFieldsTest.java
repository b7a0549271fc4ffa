package dev.redrive.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.ParsedMessage;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Consumers ignore fields they do not know, at any depth: the other half of "a producer may only add optional
 * fields" (the schema-evolution gate checks the producer's half).
 */
class UnknownFieldsTest {

    @Test
    void anOrderWithFieldsNoVersionDeclaresIsReadAsIfTheyWereAbsent() {
        String body = """
                {"eventType":"OrderPlaced","version":2,"eventId":"evt-extra","orderId":"o-extra",
                 "customer":{"email":"buyer@example.com","loyaltyTier":"gold"},
                 "total":{"amountMinor":1250,"currency":"EUR","taxMinor":200},
                 "placedAt":"2026-11-29T10:15:30Z","channel":"mobile","items":[{"sku":"A-1","qty":2}]}
                """;
        OrderPlacedReader reader = new OrderPlacedReader(new ObjectMapper(), new EventSchemas());

        ParsedMessage<OrderPlaced> parsed =
                reader.read(new IncomingMessage("m-1", "rh-1", body, Map.of(), 1, "arn:aws:sqs:q", null));

        assertThat(parsed.producerKey()).isEqualTo("evt-extra");
        assertThat(parsed.event().orderId()).isEqualTo("o-extra");
        assertThat(parsed.event().amountMinor()).isEqualTo(1250);
        assertThat(parsed.event().currency()).isEqualTo("EUR");
    }
}
