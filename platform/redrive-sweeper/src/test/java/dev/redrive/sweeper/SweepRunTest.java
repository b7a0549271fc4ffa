package dev.redrive.sweeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A sweep run's figures: read from the counts the ledger keeps as it writes, never by counting or listing the ledger,
 * and exported within the run's time.
 */
class SweepRunTest {

    final SweeperFixture fx = new SweeperFixture();
    final List<String> lines = new ArrayList<>();
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    /** Whether the ledger says the counts are complete (false: records written before counts were kept remain). */
    boolean countsComplete = true;

    final QuarantineLedger counted = (QuarantineLedger) Proxy.newProxyInstance(
            QuarantineLedger.class.getClassLoader(), new Class<?>[] {QuarantineLedger.class}, (proxy, method, args) -> {
                calls.computeIfAbsent(method.getName(), n -> new AtomicInteger())
                        .incrementAndGet();
                if (method.getName().equals("establishCounts")) {
                    return countsComplete;
                }
                try {
                    return method.invoke(fx.interleaved, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });

    /** The run's view of the queues' depths: a queue named {@code gone-dlq} cannot be read. */
    final DeadLetterSource depths = (DeadLetterSource) Proxy.newProxyInstance(
            DeadLetterSource.class.getClassLoader(), new Class<?>[] {DeadLetterSource.class}, (proxy, method, args) -> {
                if (method.getName().equals("approximateDepth") && "gone-dlq".equals(args[0])) {
                    throw new IllegalStateException("no queue gone-dlq");
                }
                try {
                    return method.invoke(fx.dlq, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });

    SweepRun run(List<Route> routes) {
        Sweeper sweeper = Sweeper.builder()
                .deadLetters(fx.dlq)
                .ledger(counted)
                .leases(fx.leases)
                .consumers(Map.of("scripted", fx.consumer), fx.claims)
                .payloads(fx.payloads)
                .windows(fx.windows)
                .replays(fx.replays)
                .stats(fx.stats)
                .archive(fx.archive)
                .settings(fx.settings)
                .clock(fx.clock)
                .replayBatch(100)
                .build();
        return new SweepRun(
                routes,
                sweeper,
                counted,
                depths,
                fx.stats,
                new BreakerHolds(fx.breakers, fx.windows, List.of()),
                Duration.ofSeconds(5),
                new SweeperMetrics(new EmfOutput(lines::add)),
                fx.clock);
    }

    private void arrivals(int n) {
        for (int i = 0; i < n; i++) {
            fx.dlq.add(SweeperFixture.ROUTE.deadLetterQueue(), SweeperFixture.redriven("k-" + i + "|{}", 3));
        }
    }

    private List<String> quarantineLines(String state) {
        return lines.stream()
                .filter(l -> l.contains("\"Quarantine\"") && l.contains("\"State\":\"" + state + "\""))
                .toList();
    }

    @Test
    void theFiguresByStateAreTheLedgersCountsReadOnceNotACountOfTheLedger() {
        arrivals(3);

        run(List.of(SweeperFixture.ROUTE)).run(Duration.ofMinutes(5), "me");

        assertThat(fx.ledger.all()).hasSize(3);
        assertThat(quarantineLines("QUARANTINED"))
                .singleElement()
                .satisfies(l -> assertThat(l).contains("\"Quarantine\":3.0"));
        assertThat(quarantineLines("REPLAYED"))
                .as("a state with none is exported as 0, so its figure falls back to 0")
                .singleElement()
                .satisfies(l -> assertThat(l).contains("\"Quarantine\":0.0"));
        assertThat(calls).doesNotContainKeys("count", "countByState", "ofQueue", "ofQueueSince");
        assertThat(calls.get("countActiveByState").get())
                .as("one read of the counts for the oldest unresolved, one for the figures")
                .isEqualTo(2);
        assertThat(calls.get("oldestActive").get())
                .as("only the unresolved states that hold records are read, one record each")
                .isEqualTo(1);
    }

    @Test
    void aQueueWhoseCountsAreStillBeingEstablishedExportsNoStateFiguresButEverythingElse() {
        countsComplete = false;
        arrivals(2);

        run(List.of(SweeperFixture.ROUTE)).run(Duration.ofMinutes(5), "me");

        assertThat(lines).noneMatch(l -> l.contains("\"Quarantine\""));
        assertThat(lines).anyMatch(l -> l.contains("\"DeadLetterQueueDepth\""));
        assertThat(lines).anyMatch(l -> l.contains("\"OldestUnresolvedQuarantineAgeSeconds\""));
        assertThat(calls.get("establishCounts").get()).isEqualTo(1);
    }

    @Test
    void aRouteThatFailsLeavesTheOthersFiguresExportedAndTheRunFailed() {
        arrivals(2);
        SweepRun run = run(List.of(new Route("scripted", "gone", "gone-dlq"), SweeperFixture.ROUTE));

        assertThatThrownBy(() -> run.run(Duration.ofMinutes(5), "me"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("gone-dlq");
        assertThat(quarantineLines("QUARANTINED"))
                .singleElement()
                .satisfies(l -> assertThat(l).contains("\"Quarantine\":2.0"));
    }
}
