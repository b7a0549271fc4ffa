package dev.redrive.lambda;

import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.core.failure.Printable;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * What happens while records are processed: effect latency goes to the metrics; what needs a person's attention goes
 * to the log (keys and classes only, never payloads). Called concurrently by the records of a batch.
 */
public final class ConsumerEvents implements ProcessingListener {

    private static final Logger LOG = Logger.getLogger("dev.redrive.consumer");

    private final ConsumerMetrics metrics;

    /** Reports effect latency to {@code metrics}. */
    public ConsumerEvents(ConsumerMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void effectFinished(String consumer, Duration latency, boolean succeeded) {
        metrics.effectLatency(consumer, latency);
    }

    @Override
    public void completionFailed(IdempotencyKey key, RuntimeException error) {
        LOG.warnf(
                "effect of %s ran but its completion was not recorded (%s); the next delivery re-claims after the "
                        + "lease and the downstream idempotency key absorbs the repeat",
                key, error.getClass().getSimpleName());
    }

    @Override
    public void releaseFailed(IdempotencyKey key, RuntimeException error) {
        LOG.warnf(
                "could not record the failure of %s (%s); its lease will expire on its own",
                key, error.getClass().getSimpleName());
    }

    @Override
    public void claimCheckNotDiscarded(String messageId, RuntimeException error) {
        LOG.warnf(
                "message %s was applied but its claim check's payload was not deleted (%s); the bucket's lifecycle rule"
                        + " expires it",
                Printable.escape(messageId), error.getClass().getSimpleName());
    }

    @Override
    public void releaseFenced(IdempotencyKey key, long fencingToken) {
        LOG.infof("release of %s with token %d was fenced out: another worker took the claim over", key, fencingToken);
    }
}
