package dev.redrive.checkout.placing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The outbox relay, the one path by which an event leaves the checkout: publish, then mark published. A crash between
 * the two publishes the event again (a duplicate the consumers absorb), never loses it; so does a mark that fails. Run on the table's stream
 * ({@link #relay}, in stream order, stopping at the first failure so the rest is retried after it) and on a schedule
 * ({@link #republishStale}, for what the stream missed).
 */
public final class OutboxRelay {

    /** Events published per call to each subscriber, and marked per write: SQS's batch. */
    public static final int BATCH = 10;

    private final Outbox outbox;
    private final OutboxPublisher publisher;

    public OutboxRelay(Outbox outbox, OutboxPublisher publisher) {
        this.outbox = Objects.requireNonNull(outbox, "outbox");
        this.publisher = Objects.requireNonNull(publisher, "publisher");
    }

    /**
     * What a relay run did.
     *
     * @param published   events the subscribers took
     * @param unmarked    of those, events whose mark could not be written: they stay unpublished in the outbox, and
     *                    the sweep republishes them (a duplicate the consumers absorb)
     * @param firstFailed the first event not published (it and those after it are retried); null when none
     * @param failure     why it was not
     */
    public record Report(int published, int unmarked, OutboxEvent firstFailed, String failure) {
        public boolean failed() {
            return firstFailed != null;
        }
    }

    /**
     * Publishes and marks {@code events} in order, {@value #BATCH} at a time (one batch call per subscriber, one write
     * of the marks); stops at the first that fails to publish, leaving it and those after it unmarked. A failed mark
     * does not stop it: those events reached the subscribers, and retrying them now would only send them again (on
     * every retry, while the write keeps failing); they stay unpublished for the sweep.
     */
    public Report relay(List<OutboxEvent> events, Instant now) {
        int published = 0;
        int unmarked = 0;
        for (int from = 0; from < events.size(); from += BATCH) {
            List<OutboxEvent> chunk = events.subList(from, Math.min(events.size(), from + BATCH));
            OutboxPublisher.Published sent;
            try {
                sent = publisher.publishAll(chunk);
            } catch (RuntimeException failure) {
                return new Report(
                        published, unmarked, chunk.get(0), failure.getClass().getSimpleName());
            }
            try {
                outbox.markAllPublished(chunk.subList(0, sent.count()), now);
            } catch (RuntimeException failure) {
                unmarked += sent.count();
            }
            published += sent.count();
            if (sent.count() < chunk.size()) {
                return new Report(published, unmarked, chunk.get(sent.count()), sent.failure());
            }
        }
        return new Report(published, unmarked, null, null);
    }

    /**
     * Republishes the events still unpublished {@code olderThan} after they were written, up to {@code limit}.
     * Failures are skipped over (each is tried again next run); the report names the first.
     */
    public Report republishStale(Instant now, Duration olderThan, int limit) {
        List<OutboxEvent> stale = outbox.unpublished(now.minus(olderThan), limit);
        int published = 0;
        int unmarked = 0;
        List<OutboxEvent> failed = new ArrayList<>();
        String failure = null;
        for (OutboxEvent e : stale) {
            Report r = relay(List.of(e), now);
            published += r.published();
            unmarked += r.unmarked();
            if (r.failed()) {
                failed.add(e);
                failure = failure == null ? r.failure() : failure;
            }
        }
        return new Report(published, unmarked, failed.isEmpty() ? null : failed.get(0), failure);
    }
}
