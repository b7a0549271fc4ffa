package dev.redrive.functions.lambda;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.checkout.placing.CheckoutRequest;
import dev.redrive.checkout.placing.OutboxStreamRecords;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.quarkus.PrimingStep;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checkout's own SnapStart priming, for its functions that are not consumers (the Redrive extension primes those):
 * the checkout's Function URL request parsed and its answer written, the outbox relay's stream records read, and the
 * scheduled functions' event read, all by the mapper the Lambda runtime reads events with, on made-up input. The
 * consumers' made-up order is {@link #ORDER}.
 */
@ApplicationScoped
public class CheckoutPriming implements PrimingStep {

    /** An order as the producer publishes it (made up: no real customer). */
    public static final String ORDER = "{\"eventType\":\"OrderPlaced\",\"version\":2,\"eventId\":\"evt-priming-1\","
            + "\"orderId\":\"o-priming-1\",\"customer\":{\"email\":\"priming@example.com\"},"
            + "\"total\":{\"amountMinor\":1250,\"currency\":\"EUR\"},\"placedAt\":\"2026-01-01T00:00:00Z\","
            + "\"channel\":\"web\"}";

    /** The handlers this step primes: every function of the artifact that is not a consumer. */
    static final Set<String> HANDLERS = Set.of(
            CheckoutNames.CHECKOUT,
            CheckoutNames.OUTBOX_RELAY,
            CheckoutNames.OUTBOX_SWEEPER,
            CheckoutNames.CHECKOUT_RECONCILIATION,
            Handlers.DLQ_SWEEPER);

    @Override
    public boolean primes(String handler) {
        return HANDLERS.contains(handler);
    }

    @Override
    public void prime(String handler, ObjectMapper events) throws JsonProcessingException {
        switch (handler) {
            case CheckoutNames.CHECKOUT -> {
                APIGatewayV2HTTPEvent event = events.readValue(functionUrlEvent(events), APIGatewayV2HTTPEvent.class);
                CheckoutRequest.parse(event.getBody());
                events.writeValueAsString(APIGatewayV2HTTPResponse.builder()
                        .withStatusCode(201)
                        .withHeaders(Map.of("Content-Type", "application/json"))
                        .withBody("{}")
                        .build());
            }
            case CheckoutNames.OUTBOX_RELAY -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> event = events.readValue(streamEvent(), Map.class);
                OutboxStreamRecords.read(event);
                events.writeValueAsString(Map.of("batchItemFailures", List.of()));
            }
            default -> events.writeValueAsString(events.readValue("{\"source\":\"aws.scheduler\"}", Map.class));
        }
    }

    private static String functionUrlEvent(ObjectMapper events) throws JsonProcessingException {
        String body = "{\"customer\":{\"email\":\"priming@example.com\"},\"items\":[{\"sku\":\"sku-priming\","
                + "\"quantity\":1}],\"currency\":\"EUR\",\"paymentToken\":\"tok_priming\"}";
        return "{\"version\":\"2.0\",\"routeKey\":\"$default\",\"rawPath\":\"/orders\",\"rawQueryString\":\"\","
                + "\"headers\":{\"content-type\":\"application/json\",\"idempotency-key\":\"ck-priming-1\"},"
                + "\"requestContext\":{\"http\":{\"method\":\"POST\",\"path\":\"/orders\",\"protocol\":\"HTTP/1.1\","
                + "\"sourceIp\":\"127.0.0.1\",\"userAgent\":\"priming\"},\"requestId\":\"priming\","
                + "\"timeEpoch\":1767225600000},\"body\":" + events.writeValueAsString(body)
                + ",\"isBase64Encoded\":false}";
    }

    private static String streamEvent() {
        return "{\"Records\":[{\"eventID\":\"1\",\"eventName\":\"INSERT\",\"eventSource\":\"aws:dynamodb\","
                + "\"dynamodb\":{\"Keys\":{\"pk\":{\"S\":\"order#o-priming-1\"},\"sk\":{\"S\":\"outbox#1\"}},"
                + "\"NewImage\":{\"pk\":{\"S\":\"order#o-priming-1\"},\"sk\":{\"S\":\"outbox#1\"},"
                + "\"orderId\":{\"S\":\"o-priming-1\"},\"sequence\":{\"N\":\"1\"},\"eventId\":{\"S\":\"evt-priming-1\"},"
                + "\"eventType\":{\"S\":\"OrderPlaced\"},\"payload\":{\"S\":\"{}\"},"
                + "\"createdAt\":{\"N\":\"1767225600000\"}},\"SequenceNumber\":\"1\",\"SizeBytes\":1},"
                + "\"eventSourceARN\":\"arn:aws:dynamodb:us-east-1:000000000000:table/priming/stream/x\"}]}";
    }
}
