package dev.redrive.quarkus.internal;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.lambda.SqsRecords;
import java.util.List;
import org.jboss.logging.Logger;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.Unit;

/**
 * The steps of {@code SnapStartPriming} that run a consumer function's code on made-up input, in memory: an SQS event
 * read and a partial batch response written by the mapper the runtime uses, a message parsed (and schema-checked) by
 * the consumer, and a metrics document rendered into nothing.
 */
public final class PrimingRun {

    private static final Logger LOG = Logger.getLogger("dev.redrive.priming");

    private final ObjectMapper events;

    /** Reads and writes events with {@code events}, the Lambda runtime's mapper. */
    public PrimingRun(ObjectMapper events) {
        this.events = events;
    }

    /** The Lambda runtime's mapper. */
    public ObjectMapper events() {
        return events;
    }

    /** Runs {@code step}, adding its name to {@code ran}; a failure is logged and added to {@code failed}, not thrown. */
    public void step(String name, Step step, List<String> ran, List<String> failed) {
        ran.add(name);
        try {
            step.run();
        } catch (Exception | LinkageError e) {
            LOG.warnf("priming step %s failed (%s); the snapshot is taken without it", name, e.toString());
            failed.add(name);
        }
    }

    /** One priming step. */
    @FunctionalInterface
    public interface Step {
        /** Runs the step. */
        void run() throws Exception;
    }

    /** Reads the SQS event a consumer's trigger delivers and writes a partial batch response. */
    public void readSqsEvent() throws JsonProcessingException {
        SQSEvent event = events.readValue(sqsEvent("{}"), SQSEvent.class);
        SqsRecords.messages(event);
        events.writeValueAsString(SQSBatchResponse.builder()
                .withBatchItemFailures(List.of(SQSBatchResponse.BatchItemFailure.builder()
                        .withItemIdentifier("priming")
                        .build()))
                .build());
    }

    /** Parses (and schema-checks) {@code body} as {@code consumer} reads a delivery. */
    public void parse(IdempotentConsumer<?> consumer, String body) throws JsonProcessingException {
        SqsRecords.messages(events.readValue(sqsEvent(body), SQSEvent.class)).forEach(consumer::parse);
    }

    /** An EMF document, rendered by the library the functions emit metrics with, into nothing. */
    public static void renderMetrics() {
        MetricsLogger metrics = new MetricsLogger(new EmfOutput(line -> {}));
        metrics.setNamespace("Redrive/Priming");
        metrics.setDimensions(DimensionSet.of("Consumer", "priming"));
        metrics.putMetric("Primed", 1, Unit.COUNT);
        metrics.flush();
    }

    private String sqsEvent(String body) throws JsonProcessingException {
        return "{\"Records\":[{\"messageId\":\"00000000-0000-4000-8000-000000000001\",\"receiptHandle\":\"priming\","
                + "\"body\":" + events.writeValueAsString(body) + ",\"attributes\":{\"ApproximateReceiveCount\":\"1\","
                + "\"SentTimestamp\":\"1767225600000\",\"ApproximateFirstReceiveTimestamp\":\"1767225600000\"},"
                + "\"messageAttributes\":{},\"md5OfBody\":\"0\",\"eventSource\":\"aws:sqs\","
                + "\"eventSourceARN\":\"arn:aws:sqs:us-east-1:000000000000:priming\",\"awsRegion\":\"us-east-1\"}]}";
    }
}
