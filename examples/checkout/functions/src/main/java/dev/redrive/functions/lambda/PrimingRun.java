package dev.redrive.functions.lambda;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.checkout.placing.CheckoutRequest;
import dev.redrive.checkout.placing.OutboxStreamRecords;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.lambda.SqsRecords;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * The steps of {@link SnapStartPriming} that run the function's own code on made-up input, in memory: the Lambda event
 * of its trigger read and an answer written by the mapper the runtime uses, the request or records it parses, the
 * orders a consumer parses and schema-checks, and a metrics document rendered into nothing.
 */
final class PrimingRun {

    private static final Logger LOG = Logger.getLogger("dev.redrive.priming");

    /** An order as the producer publishes it (made up: no real customer). */
    static final String ORDER = "{\"eventType\":\"OrderPlaced\",\"version\":2,\"eventId\":\"evt-priming-1\","
            + "\"orderId\":\"o-priming-1\",\"customer\":{\"email\":\"priming@example.com\"},"
            + "\"total\":{\"amountMinor\":1250,\"currency\":\"EUR\"},\"placedAt\":\"2026-01-01T00:00:00Z\","
            + "\"channel\":\"web\"}";

    private final ObjectMapper events;

    PrimingRun(ObjectMapper events) {
        this.events = events;
    }

    /** Runs {@code step}; a failure is logged and its name added to {@code failed}, never thrown. */
    void step(String name, Step step, List<String> failed) {
        try {
            step.run();
        } catch (Exception | LinkageError e) {
            LOG.warnf("priming step %s failed (%s); the snapshot is taken without it", name, e.toString());
            failed.add(name);
        }
    }

    /** One priming step. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    /** Reads the event {@code handler}'s trigger delivers and writes the kind of answer it gives. */
    void readEvent(String handler) throws JsonProcessingException {
        switch (handler) {
            case CheckoutNames.CONFIRMATION_EMAIL, CheckoutNames.REVENUE_ANALYTICS -> {
                SQSEvent event = events.readValue(sqsEvent(), SQSEvent.class);
                SqsRecords.messages(event);
                events.writeValueAsString(SQSBatchResponse.builder()
                        .withBatchItemFailures(List.of(SQSBatchResponse.BatchItemFailure.builder()
                                .withItemIdentifier("priming")
                                .build()))
                        .build());
            }
            case CheckoutNames.CHECKOUT -> {
                APIGatewayV2HTTPEvent event = events.readValue(functionUrlEvent(), APIGatewayV2HTTPEvent.class);
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
        renderMetrics();
    }

    /** Parses (and schema-checks) a made-up order, as {@code consumer} reads a delivery. */
    void parseOrders(IdempotentConsumer<?> consumer) throws JsonProcessingException {
        SqsRecords.messages(events.readValue(sqsEvent(), SQSEvent.class)).forEach(consumer::parse);
    }

    /** An EMF document, rendered by the library the functions emit metrics with, into nothing. */
    private static void renderMetrics() {
        MetricsLogger metrics = new MetricsLogger(new EmfOutput(line -> {}));
        metrics.setNamespace("Redrive/Priming");
        metrics.setDimensions(DimensionSet.of("Consumer", "priming"));
        metrics.putMetric("Primed", 1, Unit.COUNT);
        metrics.flush();
    }

    private String sqsEvent() throws JsonProcessingException {
        return "{\"Records\":[{\"messageId\":\"00000000-0000-4000-8000-000000000001\",\"receiptHandle\":\"priming\","
                + "\"body\":" + events.writeValueAsString(ORDER) + ",\"attributes\":{\"ApproximateReceiveCount\":\"1\","
                + "\"SentTimestamp\":\"1767225600000\",\"ApproximateFirstReceiveTimestamp\":\"1767225600000\"},"
                + "\"messageAttributes\":{},\"md5OfBody\":\"0\",\"eventSource\":\"aws:sqs\","
                + "\"eventSourceARN\":\"arn:aws:sqs:us-east-1:000000000000:priming\",\"awsRegion\":\"us-east-1\"}]}";
    }

    private String functionUrlEvent() throws JsonProcessingException {
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
