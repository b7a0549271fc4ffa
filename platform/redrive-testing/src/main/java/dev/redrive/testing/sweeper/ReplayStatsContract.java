package dev.redrive.testing.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.sweeper.ReplayStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contract of {@link ReplayStats}, for the in-memory fake and DynamoDB. */
public abstract class ReplayStatsContract {

    protected ReplayStats stats;

    /** Fresh, empty statistics. */
    protected abstract ReplayStats newStats();

    @BeforeEach
    void setUp() {
        stats = newStats();
    }

    @Test
    void nothingIsRecordedAtFirst() {
        assertThat(stats.totals()).isEmpty();
    }

    @Test
    void addsAccumulatePerFailureClass() {
        stats.add(FailureClass.TRANSIENT, 3, 0);
        stats.add(FailureClass.TRANSIENT, 2, 1);
        stats.add(FailureClass.SCHEMA, 1, 0);
        stats.add(FailureClass.POISON, 0, 2);

        assertThat(stats.totals())
                .isEqualTo(Map.of(
                        FailureClass.TRANSIENT, new ReplayStats.Totals(5, 1),
                        FailureClass.SCHEMA, new ReplayStats.Totals(1, 0),
                        FailureClass.POISON, new ReplayStats.Totals(0, 2)));
        assertThat(stats.totals().get(FailureClass.TRANSIENT).successRate()).isEqualTo(0.8);
        assertThat(stats.totals()).doesNotContainKey(FailureClass.PERMANENT);
    }

    @Test
    void concurrentAddsLoseNoUpdate() throws Exception {
        int threads = 4;
        int each = 10;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        stats.add(FailureClass.TRANSIENT, 1, i % 2);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(stats.totals().get(FailureClass.TRANSIENT))
                .isEqualTo(new ReplayStats.Totals(threads * each, threads * each / 2));
    }

    @Test
    void theSuccessRateCountsAReturnAsAFailureAndNeverGoesNegative() {
        assertThat(new ReplayStats.Totals(0, 0).successRate()).isEqualTo(1.0);
        assertThat(new ReplayStats.Totals(4, 1).successRate()).isEqualTo(0.75);
        assertThat(new ReplayStats.Totals(1, 3).successRate()).isZero();
    }
}
