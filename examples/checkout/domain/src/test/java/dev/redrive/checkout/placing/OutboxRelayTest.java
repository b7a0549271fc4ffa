package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The relay on the fakes: publish, then mark; a failure stops a stream batch at that event (it and those after it are
 * retried), a crash between publish and mark publishes again (a duplicate, never a loss), and the scheduled sweep
 * republishes what the stream missed.
 */
class OutboxRelayTest {

    static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");

    final InMemoryCheckoutStore store = new InMemoryCheckoutStore();
    final List<String> published = new ArrayList<>();
    final Set<String> refusing = new HashSet<>();
    final OutboxPublisher publisher = e -> {
        if (refusing.contains(e.orderId())) {
            throw new IllegalStateException("the queue refused it");
        }
        published.add(e.eventId());
    };
    final OutboxRelay relay = new OutboxRelay(store, publisher);

    OutboxEvent placed(String key, Instant at) {
        store.stock("sku-" + key, 5, 100, "EUR");
        CheckoutService checkout =
                new CheckoutService(store, new InMemoryPaymentProvider(), CheckoutService.Settings.DEFAULT);
        checkout.place(
                key,
                new CheckoutRequest("ada@example.com", List.of(new OrderLine("sku-" + key, 1)), "EUR", "tok_visa"),
                at,
                at.plusSeconds(30));
        return store.outbox(CheckoutService.orderIdOf(key)).get(0);
    }

    @Test
    void eachEventIsPublishedThenMarked() {
        OutboxEvent a = placed("a", T0);
        OutboxEvent b = placed("b", T0);

        OutboxRelay.Report report = relay.relay(List.of(a, b), T0.plusSeconds(1));

        assertThat(report).isEqualTo(new OutboxRelay.Report(2, 0, null, null));
        assertThat(published).containsExactly(a.eventId(), b.eventId());
        assertThat(store.publishedAt(a.orderId(), 1)).contains(T0.plusSeconds(1));
        assertThat(store.unpublished(T0.plusSeconds(60), 10)).isEmpty();
    }

    @Test
    void aFailureStopsTheBatchAtThatEventAndLeavesItAndTheRestUnmarked() {
        OutboxEvent a = placed("a", T0);
        OutboxEvent b = placed("b", T0);
        OutboxEvent c = placed("c", T0);
        refusing.add(b.orderId());

        OutboxRelay.Report report = relay.relay(List.of(a, b, c), T0.plusSeconds(1));

        assertThat(report.published()).isEqualTo(1);
        assertThat(report.firstFailed()).isEqualTo(b);
        assertThat(report.failure()).isEqualTo("IllegalStateException");
        assertThat(published).containsExactly(a.eventId());
        assertThat(store.unpublished(T0.plusSeconds(60), 10)).containsExactlyInAnyOrder(b, c);
    }

    /**
     * Events that reached the subscribers but whose marks could not be written (DynamoDB throttled the write, say) are
     * not a failure of the batch: retrying it through the stream would send them again now, and again on every retry
     * the mark fails. They stay unpublished in the outbox for the sweep, which republishes them once (a duplicate the
     * consumers absorb), and the relay goes on with the rest of the batch.
     */
    @Test
    void eventsPublishedWhoseMarksFailAreLeftToTheSweepNotRetriedThroughTheStream() {
        OutboxEvent a = placed("a", T0);
        OutboxEvent b = placed("b", T0);
        java.util.concurrent.atomic.AtomicInteger marks = new java.util.concurrent.atomic.AtomicInteger();
        Outbox marksFailOnce = new Outbox() {
            @Override
            public List<OutboxEvent> unpublished(Instant writtenBefore, int limit) {
                return store.unpublished(writtenBefore, limit);
            }

            @Override
            public void markPublished(String orderId, long sequence, Instant now) {
                store.markPublished(orderId, sequence, now);
            }

            @Override
            public java.util.Optional<Instant> publishedAt(String orderId, long sequence) {
                return store.publishedAt(orderId, sequence);
            }

            @Override
            public void markAllPublished(List<OutboxEvent> events, Instant now) {
                if (marks.incrementAndGet() == 1) {
                    throw new IllegalStateException("ProvisionedThroughputExceeded");
                }
                store.markAllPublished(events, now);
            }
        };
        List<OutboxEvent> events = new ArrayList<>();
        events.add(a);
        for (int i = 0; i < 9; i++) {
            events.add(placed("first-batch-" + i, T0));
        }
        events.add(b);

        OutboxRelay.Report report = new OutboxRelay(marksFailOnce, publisher).relay(events, T0.plusSeconds(1));

        assertThat(report.failed()).as("nothing for the stream to retry").isFalse();
        assertThat(report.published()).isEqualTo(11);
        assertThat(report.unmarked()).isEqualTo(10);
        assertThat(published).hasSize(11).doesNotHaveDuplicates();
        assertThat(store.unpublished(T0.plusSeconds(60), 100))
                .as("the first ten are left for the sweep; the eleventh was marked")
                .containsExactlyInAnyOrderElementsOf(events.subList(0, 10));

        OutboxRelay.Report sweep = relay.republishStale(T0.plus(Duration.ofMinutes(5)), Duration.ofMinutes(2), 100);

        assertThat(sweep.published()).isEqualTo(10);
        assertThat(store.unpublished(T0.plus(Duration.ofMinutes(10)), 100)).isEmpty();
        assertThat(published)
                .as("each published twice at most: once by the relay, once by the sweep")
                .hasSize(21);
    }

    @Test
    void aRelayThatDiedAfterPublishingPublishesAgainNeverLoses() {
        OutboxEvent a = placed("a", T0);
        publisher.publish(a); // then the relay died before marking

        OutboxRelay.Report sweep = relay.republishStale(T0.plus(Duration.ofMinutes(5)), Duration.ofMinutes(2), 100);

        assertThat(sweep.published()).isEqualTo(1);
        assertThat(published).containsExactly(a.eventId(), a.eventId());
        assertThat(store.publishedAt(a.orderId(), 1)).isPresent();
    }

    @Test
    void theSweepRepublishesOnlyWhatIsOlderThanItsAgeAndSkipsOverAFailure() {
        OutboxEvent old = placed("old", T0);
        OutboxEvent stuck = placed("stuck", T0.plusSeconds(1));
        OutboxEvent fresh = placed("fresh", T0.plus(Duration.ofMinutes(4)));
        refusing.add(stuck.orderId());

        OutboxRelay.Report sweep = relay.republishStale(T0.plus(Duration.ofMinutes(5)), Duration.ofMinutes(2), 100);

        assertThat(sweep.published()).isEqualTo(1);
        assertThat(sweep.firstFailed()).isEqualTo(stuck);
        assertThat(published).containsExactly(old.eventId());
        assertThat(store.unpublished(T0.plus(Duration.ofMinutes(10)), 10)).containsExactlyInAnyOrder(stuck, fresh);
    }

    @Test
    void eventsGoTenAtATimeAndAPartlyTakenBatchStopsAtItsFirstRefusedEvent() {
        List<OutboxEvent> events = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            events.add(placed("batch-" + i, T0));
        }
        List<Integer> batchSizes = new ArrayList<>();
        OutboxPublisher batching = new OutboxPublisher() {
            @Override
            public void publish(OutboxEvent event) {
                throw new AssertionError("one at a time");
            }

            @Override
            public Published publishAll(List<OutboxEvent> batch) {
                batchSizes.add(batch.size());
                return batchSizes.size() < 3 ? new Published(batch.size(), null) : new Published(2, "refused entry 2");
            }
        };

        OutboxRelay.Report report = new OutboxRelay(store, batching).relay(events, T0.plusSeconds(1));

        assertThat(batchSizes).containsExactly(10, 10, 5);
        assertThat(report.published()).isEqualTo(22);
        assertThat(report.firstFailed()).isEqualTo(events.get(22));
        assertThat(report.failure()).isEqualTo("refused entry 2");
        assertThat(store.unpublished(T0.plusSeconds(60), 100))
                .containsExactlyInAnyOrder(events.get(22), events.get(23), events.get(24));
    }
}
