package dev.redrive.core.consumer;

import static dev.redrive.testing.Messages.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.testing.ManualClock;
import dev.redrive.testing.ScriptedConsumer;
import dev.redrive.testing.claim.InMemoryClaimStore;
import dev.redrive.testing.consumer.InMemoryQueueGateway;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * No effect starts or finishes after its lease, and effects that hang past it cost their container nothing but their
 * own thread. A hung effect here is one blocked in I/O that ignores interrupts, and resumes later (a frozen sandbox
 * thawed, a stalled connection answering).
 */
class EffectLeaseTest {

    static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    static final Duration REMAINING = Duration.ofSeconds(30);

    final ManualClock clock = new ManualClock(T0);
    final InMemoryClaimStore claims = new InMemoryClaimStore();
    final InMemoryQueueGateway queues = new InMemoryQueueGateway();
    final ScriptedConsumer consumer = new ScriptedConsumer();
    final CountDownLatch thaw = new CountDownLatch(1);

    @AfterEach
    void thawEverything() {
        thaw.countDown();
    }

    BatchProcessor container(int concurrency) {
        MessageProcessor processor = new MessageProcessor(
                claims,
                LeasePolicy.DEFAULT,
                new FullJitterBackoff(Duration.ofSeconds(2), 2, Duration.ofMinutes(5)),
                new Mulberry32(1),
                clock,
                ProcessingListener.NONE);
        return new BatchProcessor(processor, queues, concurrency);
    }

    void hangIgnoringInterrupts() {
        while (true) {
            try {
                thaw.await();
                return;
            } catch (InterruptedException ignored) {
                // a thread blocked in I/O does not notice the interrupt
            }
        }
    }

    /** A downstream reached through a client bounded by the effect's deadline, like an SDK client's call timeouts. */
    static final class Downstream {
        final AtomicInteger applied = new AtomicInteger();

        void apply(EffectContext context) {
            context.checkTimeLeft("the downstream call");
            applied.incrementAndGet();
        }
    }

    @Test
    void aHungEffectThatResumesAfterItsLeaseDoesNotApply() throws Exception {
        Downstream downstream = new Downstream();
        CountDownLatch started = new CountDownLatch(1);
        consumer.on("order-1", (k, context) -> {
            if (context.fencingToken() == 1) {
                started.countDown();
                hangIgnoringInterrupts(); // frozen mid-effect, before its call went out
            }
            downstream.apply(context);
            return "applied with token " + context.fencingToken();
        });
        BatchProcessor frozen = container(2);
        BatchReport first =
                frozen.process(consumer, List.of(message("order-1")), Duration.ofSeconds(2), () -> REMAINING);
        // Bounded: a lane whose budget ended before it started never runs the effect (then this fails, not hangs).
        assertThat(started.await(10, TimeUnit.SECONDS))
                .as("the effect started within the batch's budget")
                .isTrue();

        clock.advance(Duration.ofSeconds(40)); // past token 1's lease: the message comes back elsewhere
        BatchReport rescue = container(2)
                .process(consumer, List.of(message("order-1", 2, null)), Duration.ofSeconds(5), () -> REMAINING);
        thaw.countDown(); // the zombie resumes
        assertThat(frozen.awaitLanesEnded(Duration.ofSeconds(10))).isTrue();

        assertThat(first.outcomes().get(0)).isInstanceOf(MessageOutcome.TimedOut.class);
        assertThat(rescue.outcomes().get(0))
                .isEqualTo(new MessageOutcome.Applied("scripted#order-1", 2, "applied with token 2"));
        assertThat(downstream.applied.get()).as("effects applied downstream").isEqualTo(1);
        ClaimRecord claim = claims.find(new IdempotencyKey("scripted", "order-1"), clock.instant())
                .orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.COMPLETED);
        assertThat(claim.fencingToken()).isEqualTo(2);
        assertThat(claim.lastFailure())
                .as("the zombie's late failure was fenced out")
                .isNull();
    }

    @Test
    void anEffectClaimedAfterItsDeadlineNeverStarts() {
        Downstream downstream = new Downstream();
        consumer.on("order-2", (k, context) -> {
            downstream.apply(context);
            return "ok";
        });

        // Claimed with no time left: the minimum lease (10 s) minus skew and effect margin leaves 7 s, and the
        // processor's clock jumps past it between the claim and the effect.
        MessageProcessor slow = new MessageProcessor(
                claims,
                LeasePolicy.DEFAULT,
                new FullJitterBackoff(Duration.ofSeconds(2), 2, Duration.ofMinutes(5)),
                new Mulberry32(1),
                new java.time.Clock() {
                    int reads;

                    @Override
                    public Instant instant() {
                        return reads++ == 0 ? T0 : T0.plusSeconds(8);
                    }

                    @Override
                    public java.time.ZoneId getZone() {
                        return java.time.ZoneOffset.UTC;
                    }

                    @Override
                    public java.time.Clock withZone(java.time.ZoneId zone) {
                        return this;
                    }
                },
                ProcessingListener.NONE);

        MessageOutcome outcome = slow.process(consumer, message("order-2"), () -> Duration.ZERO);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        MessageOutcome.RetryLater.class,
                        r -> assertThat(r.classification().errorType()).isEqualTo("EffectDeadlinePassed"));
        assertThat(downstream.applied.get()).isZero();
        assertThat(consumer.applied("order-2")).isZero();
    }

    @Test
    void theEffectDeadlineIsTheLeaseEndMinusSkewAndMargin() {
        Instant[] seen = new Instant[1];
        consumer.on("order-3", (k, context) -> {
            seen[0] = context.deadline();
            return "ok";
        });

        container(1).process(consumer, List.of(message("order-3")), Duration.ofSeconds(5), () -> REMAINING);

        // lease = now + remaining + 2 s skew; deadline = lease - 2 s skew - 1 s margin = the invocation's end - 1 s
        assertThat(seen[0]).isEqualTo(T0.plus(REMAINING).minusSeconds(1));
    }

    @Test
    void hungLanesDoNotStarveTheLaterRecordsOfTheirContainer() throws Exception {
        BatchProcessor container = container(2);
        for (String key : List.of("hangs-1", "hangs-2")) {
            consumer.on(key, (k, c) -> {
                hangIgnoringInterrupts();
                return "late";
            });
        }
        container.process(
                consumer, List.of(message("hangs-1"), message("hangs-2")), Duration.ofMillis(300), () -> REMAINING);

        BatchReport later = container.process(
                consumer, List.of(message("a"), message("b"), message("c")), Duration.ofSeconds(5), () -> REMAINING);

        assertThat(later.outcomes())
                .as("records that ran")
                .filteredOn(MessageOutcome.Applied.class::isInstance)
                .hasSize(3);
        // The later batch's lanes end just after their outcomes are in: wait for them, then the hung two remain.
        await().atMost(Duration.ofSeconds(10)).until(() -> container.lanesRunning() <= 2);
        assertThat(container.lanesRunning())
                .as("the two hung lanes, still holding their own threads")
                .isEqualTo(2);
        thaw.countDown();
        assertThat(container.awaitLanesEnded(Duration.ofSeconds(10))).isTrue();
    }
}
