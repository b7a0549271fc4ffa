package dev.redrive.localrun.eventsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.redrive.localrun.lambda.InvocationResult;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A held schedule fires nothing, and the hold returns only once the firing running at the time has ended. */
class LocalSchedulerTest {

    @Test
    void aHoldWaitsForTheRunningFiringAndThenNothingFiresUntilReleased() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicBoolean holdReturned = new AtomicBoolean();
        AtomicBoolean heldDuringAFiring = new AtomicBoolean();
        AtomicInteger firings = new AtomicInteger();
        try (LocalScheduler scheduler = new LocalScheduler()) {
            scheduler.schedule(
                    "sweeper",
                    input -> {
                        int n = firings.incrementAndGet();
                        if (n == 1) {
                            started.countDown();
                            finish.await();
                        }
                        if (holdReturned.get()) {
                            heldDuringAFiring.set(true);
                        }
                        return new InvocationResult.Response("{}", Duration.ZERO);
                    },
                    "{}",
                    Duration.ofSeconds(1),
                    5,
                    r -> {});
            assertThat(started.await(10, TimeUnit.SECONDS))
                    .as("the first firing started")
                    .isTrue();
            Thread holder = new Thread(() -> {
                try {
                    scheduler.hold("sweeper", true);
                    holdReturned.set(true);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            holder.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> holder.getState() == Thread.State.WAITING);
            assertThat(holdReturned).as("the hold returned while a firing ran").isFalse();

            finish.countDown();
            holder.join(TimeUnit.SECONDS.toMillis(10));

            assertThat(holdReturned)
                    .as("the hold returned once the firing ended")
                    .isTrue();
            int whenHeld = firings.get();
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> firings.get() == whenHeld);
            assertThat(heldDuringAFiring)
                    .as("a firing ran after the hold returned")
                    .isFalse();

            scheduler.hold("sweeper", false);
            await().atMost(Duration.ofSeconds(10)).until(() -> firings.get() > whenHeld);
        }
    }
}
