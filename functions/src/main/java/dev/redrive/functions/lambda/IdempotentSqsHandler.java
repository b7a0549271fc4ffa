package dev.redrive.functions.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.functions.config.RedriveConfig;
import dev.redrive.functions.metrics.ConsumerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The Lambda side of an idempotent SQS consumer: turns the event into messages, lets the core process the batch, and
 * answers with a partial batch response (ReportBatchItemFailures) so only the failed records come back.
 *
 * <p>A subclass is a {@code @Named} CDI bean that hands its consumer to this constructor; the IaC picks it per
 * function with {@code QUARKUS_LAMBDA_HANDLER}.
 */
public abstract class IdempotentSqsHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = Logger.getLogger("dev.redrive.consumer");
    /**
     * Used when the deadline is unknown: no Lambda context (a direct call), or a runtime that sent no
     * {@code Lambda-Runtime-Deadline-Ms} (Quarkus' mock event server). Lambda itself always sends one.
     */
    private static final Duration UNKNOWN_DEADLINE_REMAINING = Duration.ofSeconds(60);

    private final IdempotentConsumer<?> consumer;
    private final BatchProcessor batches;
    private final RedriveConfig config;
    private final ConsumerMetrics metrics;

    /** A handler running {@code consumer}. */
    protected IdempotentSqsHandler(
            IdempotentConsumer<?> consumer, BatchProcessor batches, RedriveConfig config, ConsumerMetrics metrics) {
        this.consumer = consumer;
        this.batches = batches;
        this.config = config;
        this.metrics = metrics;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        List<IncomingMessage> messages = SqsRecords.messages(event);
        if (messages.isEmpty()) {
            return SQSBatchResponse.builder().withBatchItemFailures(List.of()).build();
        }
        Duration remaining = remaining(context);
        Duration budget = remaining.minus(margin(remaining, config.batch().deadlineMargin()));
        BatchReport report = batches.process(consumer, messages, budget, () -> remaining(context));
        log(report);
        metrics.record(consumer.name(), report);
        metrics.flush(consumer.name());
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (String id : report.failedMessageIds()) {
            failures.add(SQSBatchResponse.BatchItemFailure.builder()
                    .withItemIdentifier(id)
                    .build());
        }
        return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
    }

    /**
     * The time kept back from the deadline: the configured margin, but never more than a quarter of what is left,
     * so a short function timeout still leaves most of it for the work.
     */
    static Duration margin(Duration remaining, Duration configured) {
        Duration quarter = remaining.dividedBy(4);
        return configured.compareTo(quarter) < 0 ? configured : quarter;
    }

    private static Duration remaining(Context context) {
        if (context == null) {
            return UNKNOWN_DEADLINE_REMAINING;
        }
        long millis = context.getRemainingTimeInMillis();
        // A deadline in the past means none was given (the context computes "0 - now"): Lambda never invokes late.
        return millis <= 0 ? UNKNOWN_DEADLINE_REMAINING : Duration.ofMillis(millis);
    }

    private void log(BatchReport report) {
        LOG.infof(
                "%s: batch of %d -> %s; %d reported failed",
                consumer.name(),
                report.entries().size(),
                report.countsByOutcome(),
                report.failedMessageIds().size());
        if (!report.visibilityNotChanged().isEmpty()) {
            LOG.warnf(
                    "%s: the retry delay of %d message(s) was not set, they come back after the queue's visibility "
                            + "timeout instead: %s",
                    consumer.name(), report.visibilityNotChanged().size(), report.visibilityNotChanged());
        }
        for (BatchReport.Entry e : report.entries()) {
            MessageOutcome o = e.outcome();
            if (o instanceof MessageOutcome.DeadLettered d) {
                LOG.warnf(
                        "%s: message %s dead-lettered: %s %s (%s), key %s",
                        consumer.name(),
                        e.message().messageId(),
                        d.failure().failureClass(),
                        d.failure().classification().errorType(),
                        d.failure().classification().reason(),
                        d.key());
            } else if (o instanceof MessageOutcome.RetryLater r) {
                LOG.infof(
                        "%s: message %s retries in %ds after %s %s, attempt %d",
                        consumer.name(),
                        e.message().messageId(),
                        r.delaySeconds(),
                        r.classification().failureClass(),
                        r.classification().errorType(),
                        e.message().receiveCount());
            }
        }
    }
}
