package dev.redrive.core.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.testing.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ParallelChecksTest {

    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

    @Test
    void resultsComeBackInTheOrderGivenFromSeveralThreadsAtOnce() throws Exception {
        List<Integer> inputs = IntStream.range(0, 40).boxed().toList();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch together = new CountDownLatch(4);

        List<Optional<Integer>> out = ParallelChecks.map(
                inputs,
                i -> {
                    threads.add(Thread.currentThread().getName());
                    together.countDown();
                    await(together);
                    return i * 2;
                },
                4,
                Optional.empty(),
                Clock.systemUTC());

        assertThat(out)
                .containsExactlyElementsOf(
                        inputs.stream().map(i -> Optional.of(i * 2)).toList());
        assertThat(threads).as("four checks ran at the same time").hasSize(4);
        assertThat(Thread.getAllStackTraces().keySet())
                .as("no thread outlives the call")
                .noneMatch(t -> t.getName().startsWith("replay-check-"));
    }

    @Test
    void noCheckStartsAfterTheDeadlineAndALateResultIsDropped() {
        ManualClock clock = new ManualClock(T0);
        Instant deadline = T0.plusMillis(2_500);
        List<Instant> starts = new java.util.concurrent.CopyOnWriteArrayList<>();

        List<Optional<String>> out = ParallelChecks.map(
                List.of("a", "b", "c", "d", "e", "f"),
                s -> {
                    starts.add(clock.instant());
                    clock.advance(Duration.ofSeconds(1)); // each check takes a second; the lease ends after 2.5
                    return s;
                },
                2,
                Optional.of(deadline),
                clock);

        assertThat(starts).as("every check started before the deadline").allMatch(t -> t.isBefore(deadline));
        assertThat(starts.size()).isLessThan(6);
        assertThat(out).hasSize(6);
        assertThat(out.stream().filter(Optional::isPresent).count())
                .as("only the checks that finished before the deadline count")
                .isLessThanOrEqualTo(2);
        assertThat(out.get(5)).isEmpty();
    }

    @Test
    void oneAtATimeStopsAtTheDeadlineToo() {
        ManualClock clock = new ManualClock(T0);

        List<Optional<String>> out = ParallelChecks.map(
                List.of("a", "b", "c"),
                s -> {
                    clock.advance(Duration.ofSeconds(1));
                    return s;
                },
                1,
                Optional.of(T0.plusMillis(1_500)),
                clock);

        assertThat(out).containsExactly(Optional.of("a"), Optional.of("b"), Optional.empty());
    }

    @Test
    void aFailingCheckIsThrownOnceEveryThreadHasStopped() {
        assertThatThrownBy(() -> ParallelChecks.map(
                        IntStream.range(0, 20).boxed().toList(),
                        i -> {
                            if (i == 7) {
                                throw new IllegalStateException("dead letter 7 keeps no payload");
                            }
                            return i;
                        },
                        3,
                        Optional.empty(),
                        Clock.systemUTC()))
                .hasMessageContaining("dead letter 7");
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.getName().startsWith("replay-check-"));
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
