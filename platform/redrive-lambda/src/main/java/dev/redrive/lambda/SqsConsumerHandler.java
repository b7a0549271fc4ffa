package dev.redrive.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.core.failure.Printable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * The Lambda side of an idempotent SQS consumer: turns the event into messages, lets the core process the batch, and
 * answers with a partial batch response (ReportBatchItemFailures) so only the failed records come back.
 *
 * <p><b>It never returns while an effect is still running.</b> After the handler returns, Lambda freezes the sandbox;
 * a thread still blocked in an effect would resume when the sandbox is next thawed, possibly minutes later, after its
 * lease — and apply the effect a second time. So once the batch is settled (visibility changes and dead letters
 * sent, the response ready), the handler waits until every lane has ended. Effects end by their deadline (their calls
 * time out inside it, see {@link dev.redrive.core.consumer.EffectContext}), which is before the invocation's; one that
 * ignores its deadline keeps the handler from returning until Lambda's timeout ends the invocation, and Lambda then
 * replaces the sandbox, thread and all: nothing of it ever resumes. The price of that rare case is the partial batch
 * response: the whole batch comes back, and what was applied is acknowledged as a duplicate.
 *
 * <p>Why not exit the process after posting the response instead: neither runtime this artifact runs under (AWS's
 * runtime interface client on {@code java21}, Quarkus' poll loop in the native {@code bootstrap}) calls anything
 * between posting the response and asking for the next invocation, so an exit could only race the post, and a lost
 * response costs the same whole-batch retry on every batch that had a straggler.
 *
 * <p>A function's handler is a subclass with a public no-argument constructor that hands this one its consumer, built
 * by {@link Redrive} (or by a framework's wiring: the checkout example's Quarkus handlers are CDI beans):
 *
 * <pre>{@code
 * public class Receipts extends SqsConsumerHandler {
 *     public Receipts() {
 *         super(Redrive.fromEnvironment().externalEffect("receipts", READER, (event, ctx) -> mailer.send(event)));
 *     }
 * }
 * }</pre>
 */
public abstract class SqsConsumerHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {

    private static final Logger LOG = Logger.getLogger("dev.redrive.consumer");
    /**
     * Used when the deadline is unknown: no Lambda context (a direct call), or a runtime that sent no
     * {@code Lambda-Runtime-Deadline-Ms} (Quarkus' mock event server). Lambda itself always sends one.
     */
    private static final Duration UNKNOWN_DEADLINE_REMAINING = Duration.ofSeconds(60);
    /** Lambda's longest timeout: a remaining time beyond it is no deadline at all. */
    private static final Duration LONGEST_INVOCATION = Duration.ofMinutes(15);

    private final IdempotentConsumer<?> consumer;
    private final BatchProcessor batches;
    private final Duration deadlineMargin;
    private final ConsumerMetrics metrics;

    /** A handler running {@code consumer} with the machinery it was built with. */
    protected SqsConsumerHandler(RedriveConsumer consumer) {
        this.consumer = consumer.consumer();
        this.batches = consumer.batches();
        this.deadlineMargin = consumer.deadlineMargin();
        this.metrics = consumer.metrics();
    }

    /** Processes the batch and answers with the records to retry (none when the batch is settled). */
    @Override
    public final SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        List<IncomingMessage> messages = SqsRecords.messages(event);
        int unidentified = SqsRecords.unidentified(event);
        if (unidentified > 0) {
            LOG.errorf(
                    "%s: %d record(s) without a message id cannot be reported on their own; the whole batch is reported "
                            + "failed so that none is acknowledged unprocessed",
                    consumer.name(), unidentified);
        }
        if (messages.isEmpty()) {
            return SQSBatchResponse.builder()
                    .withBatchItemFailures(unidentified > 0 ? List.of(wholeBatch()) : List.of())
                    .build();
        }
        Duration remaining = remaining(context);
        Duration budget = remaining.minus(margin(remaining, deadlineMargin));
        BatchReport report = batches.process(consumer, messages, budget, () -> remaining(context));
        log(report);
        metrics.record(consumer.name(), report);
        metrics.flush(consumer.name());
        awaitRunningEffects();
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (String id : report.failedMessageIds()) {
            failures.add(SQSBatchResponse.BatchItemFailure.builder()
                    .withItemIdentifier(id)
                    .build());
        }
        if (unidentified > 0) {
            failures.add(wholeBatch());
        }
        return SQSBatchResponse.builder().withBatchItemFailures(failures).build();
    }

    /** An empty item identifier: Lambda then treats the whole batch as failed and deletes none of it. */
    private static SQSBatchResponse.BatchItemFailure wholeBatch() {
        return SQSBatchResponse.BatchItemFailure.builder()
                .withItemIdentifier("")
                .build();
    }

    /** Does not let the sandbox freeze with an effect running (see the class comment). */
    private void awaitRunningEffects() {
        int running = batches.lanesRunning();
        if (running == 0) {
            return;
        }
        LOG.warnf(
                "%s: %d record(s) still running past the batch's budget; not returning until they end (by their "
                        + "deadline, or by the function's timeout, which replaces this sandbox)",
                consumer.name(), running);
        try {
            while (!batches.awaitLanesEnded(Duration.ofMinutes(15))) {
                // Lambda's timeout (at most 15 minutes) ends this invocation first
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Logs with the message's identity as structured fields: key=value in the line (every value escaped, so no key or
     * id can forge a line) and the same in the MDC (for a JSON log format), never concatenated into the text.
     */
    private void withFields(IncomingMessage message, String key, Runnable log) {
        MDC.put("consumer", consumer.name());
        MDC.put("messageId", Printable.escape(message.messageId()));
        if (key != null) {
            MDC.put("idempotencyKey", Printable.escape(key));
        }
        try {
            log.run();
        } finally {
            MDC.remove("consumer");
            MDC.remove("messageId");
            MDC.remove("idempotencyKey");
        }
    }

    /**
     * The time kept back from the deadline: the configured margin, but never more than a quarter of what is left,
     * so a short function timeout still leaves most of it for the work.
     */
    static Duration margin(Duration remaining, Duration configured) {
        Duration quarter = remaining.dividedBy(4);
        return configured.compareTo(quarter) < 0 ? configured : quarter;
    }

    /**
     * The invocation's remaining time. Lambda's context computes it as {@code (int) (deadline - now)}: below zero once
     * the deadline has passed (a sandbox thawed late: no time left), and any value at all when no deadline was given
     * (Quarkus' mock event server sends none: {@code 0 - now} wraps around), which no real invocation can have, as
     * none lasts more than 15 minutes.
     */
    static Duration remaining(Context context) {
        if (context == null) {
            return UNKNOWN_DEADLINE_REMAINING;
        }
        long millis = context.getRemainingTimeInMillis();
        if (millis > LONGEST_INVOCATION.toMillis() || millis < -LONGEST_INVOCATION.toMillis()) {
            return UNKNOWN_DEADLINE_REMAINING;
        }
        return millis <= 0 ? Duration.ZERO : Duration.ofMillis(millis);
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
                withFields(
                        e.message(),
                        d.key(),
                        () -> LOG.warnf(
                                "message dead-lettered consumer=%s messageId=%s key=%s class=%s errorType=%s reason=\"%s\"",
                                consumer.name(),
                                Printable.escape(e.message().messageId()),
                                Printable.escape(d.key()),
                                d.failure().failureClass(),
                                Printable.escape(d.failure().classification().errorType()),
                                d.failure().classification().reason()));
            } else if (o instanceof MessageOutcome.RetryLater r) {
                withFields(
                        e.message(),
                        r.key(),
                        () -> LOG.infof(
                                "message retries consumer=%s messageId=%s key=%s delaySeconds=%d class=%s errorType=%s attempt=%d",
                                consumer.name(),
                                Printable.escape(e.message().messageId()),
                                Printable.escape(r.key()),
                                r.delaySeconds(),
                                r.classification().failureClass(),
                                Printable.escape(r.classification().errorType()),
                                e.message().receiveCount()));
            }
        }
    }
}
