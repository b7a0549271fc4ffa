package dev.redrive.testing.operator;

import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.BreakerWrite;
import dev.redrive.core.operator.BreakerHolds;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.WindowChange;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Maintenance windows holding their dependency's breaker, on the windows and breaker stores together (issue 36, item
 * 7): whatever the windows went through (added, replaced, removed, a sweep in between, a write that failed), the
 * breaker is never held past the end of every window that exists. For the in-memory fakes and DynamoDB: each test
 * has a dependency and window ids of its own.
 */
public abstract class WindowHoldsContract {

    /** The windows, kept where {@link #breakers()} are (on AWS, the same control table). */
    protected abstract MaintenanceWindows windows();

    protected abstract BreakerStore breakers();

    final String dependency = "mail-" + UUID.randomUUID();
    final SweeperFixture f = new SweeperFixture();
    final Instant end = T0.plus(Duration.ofHours(2));

    String id(String name) {
        return name + "-" + dependency;
    }

    OperatorPort operator(MaintenanceWindows windows, BreakerStore breakers) {
        return f.operator()
                .windows(windows)
                .breakers(breakers, List.of(dependency))
                .build();
    }

    OperatorPort operator() {
        return operator(windows(), breakers());
    }

    BreakerHolds sweeper(MaintenanceWindows windows) {
        return new BreakerHolds(breakers(), windows, List.of(dependency));
    }

    MaintenanceWindow holding(String name, Instant start, Instant end) {
        return new MaintenanceWindow(id(name), dependency, start, end, "cab", "vendor notice", true);
    }

    BreakerState breaker() {
        return breakers().read(dependency);
    }

    /** The breaker is held past now: some window must ask for it to its end. */
    static boolean heldPast(BreakerState b, Instant now) {
        return b.status() == Status.OPEN && b.openUntil().isAfter(now);
    }

    @Test
    void replacingAHoldingWindowWithAShorterOneHoldsToTheNewEndAndRemovingItThenReleases() {
        OperatorPort operator = operator();
        operator.addWindow(holding("chg-1", T0.minusSeconds(60), end));
        Instant shorter = T0.plus(Duration.ofMinutes(30));

        operator.addWindow(holding("chg-1", T0.minusSeconds(60), shorter));

        assertThat(breaker().openUntil())
                .as("held to the end of the window that exists")
                .isEqualTo(shorter);
        f.clock.advance(Duration.ofMinutes(5));
        assertThat(operator.removeWindow(id("chg-1"))).isTrue();
        assertThat(heldPast(breaker(), f.clock.instant()))
                .as("no window is left: released (%s)", breaker())
                .isFalse();
    }

    @Test
    void removingOneOfTwoOverlappingHoldingWindowsKeepsTheHoldTheOtherAsksFor() {
        OperatorPort operator = operator();
        Instant later = end.plus(Duration.ofHours(1));
        operator.addWindow(holding("chg-11", T0.minusSeconds(60), end));
        operator.addWindow(holding("chg-12", T0.minusSeconds(30), later));
        assertThat(breaker().openUntil()).isEqualTo(later);

        operator.removeWindow(id("chg-12"));

        assertThat(breaker().openUntil()).as("chg-11 still holds it to its end").isEqualTo(end);
        operator.removeWindow(id("chg-11"));
        assertThat(heldPast(breaker(), f.clock.instant())).isFalse();
    }

    /** The windows as stored, running {@code afterList} once, right after the next list is read. */
    static class InterleavingWindows implements MaintenanceWindows {
        final MaintenanceWindows stored;
        Runnable afterList;

        InterleavingWindows(MaintenanceWindows stored) {
            this.stored = stored;
        }

        @Override
        public void add(MaintenanceWindow window) {
            stored.add(window);
        }

        @Override
        public boolean remove(String id) {
            return stored.remove(id);
        }

        @Override
        public List<MaintenanceWindow> list() {
            List<MaintenanceWindow> read = stored.list();
            Runnable then = afterList;
            afterList = null;
            if (then != null) {
                then.run();
            }
            return read;
        }

        @Override
        public Optional<MaintenanceWindow> find(String id) {
            return stored.find(id);
        }

        @Override
        public boolean change(WindowChange change, List<BreakerWrite> breakers) {
            return stored.change(change, breakers);
        }
    }

    @Test
    void aSweepThatReadTheWindowsBeforeTheyWereRemovedHoldsNothingForThem() {
        OperatorPort operator = operator();
        Instant start = T0.plus(Duration.ofMinutes(10));
        operator.addWindow(holding("chg-7", start, end));
        f.clock.set(start.plusSeconds(90));
        InterleavingWindows sweepersView = new InterleavingWindows(windows());
        sweepersView.afterList = () -> operator.removeWindow(id("chg-7"));

        sweeper(sweepersView).holdDue(f.clock.instant());

        assertThat(operator.window(id("chg-7"))).isEmpty();
        assertThat(heldPast(breaker(), f.clock.instant()))
                .as("held with no window left: %s", breaker())
                .isFalse();
    }

    /**
     * The control table whose next write of a breaker fails (throttled, say), whether the breaker is written alone or
     * with a window's change: nothing of that write is stored.
     */
    final class FlakyControlTable {
        boolean failNext;

        void failIfAsked() {
            if (failNext) {
                failNext = false;
                throw new IllegalStateException("ProvisionedThroughputExceeded on the control table");
            }
        }

        final BreakerStore breakers = new BreakerStore() {
            @Override
            public BreakerState read(String dependency) {
                return breakers().read(dependency);
            }

            @Override
            public boolean transition(
                    String dependency, long expectedToken, BreakerState next, BreakerTransition entry) {
                failIfAsked();
                return breakers().transition(dependency, expectedToken, next, entry);
            }

            @Override
            public List<BreakerTransition> history(String dependency) {
                return breakers().history(dependency);
            }
        };

        final MaintenanceWindows windows = new InterleavingWindows(windows()) {
            @Override
            public boolean change(WindowChange change, List<BreakerWrite> writes) {
                if (!writes.isEmpty()) {
                    failIfAsked();
                }
                return super.change(change, writes);
            }
        };

        OperatorPort operator() {
            return WindowHoldsContract.this.operator(windows, breakers);
        }
    }

    @Test
    void aRemoveWhoseBreakerWriteFailsLeavesTheWindowToRemoveAgain() {
        FlakyControlTable flaky = new FlakyControlTable();
        OperatorPort operator = flaky.operator();
        operator.addWindow(holding("chg-1", T0.minusSeconds(60), end));
        f.clock.advance(Duration.ofMinutes(5));
        flaky.failNext = true;

        assertThatThrownBy(() -> operator.removeWindow(id("chg-1"))).hasMessageContaining("ProvisionedThroughput");

        assertThat(operator.window(id("chg-1")))
                .as("the breaker is still held (%s): its window must still be there to remove", breaker())
                .isPresent();
        assertThat(operator.removeWindow(id("chg-1"))).isTrue();
        assertThat(heldPast(breaker(), f.clock.instant())).isFalse();
    }

    @Test
    void anAddWhoseBreakerWriteFailsStoresNoWindow() {
        FlakyControlTable flaky = new FlakyControlTable();
        OperatorPort operator = flaky.operator();
        flaky.failNext = true;

        assertThatThrownBy(() -> operator.addWindow(holding("chg-1", T0.minusSeconds(60), end)))
                .hasMessageContaining("ProvisionedThroughput");

        assertThat(operator.window(id("chg-1")))
                .as("the breaker was not held (%s): the window asking for it must not be stored", breaker())
                .isEmpty();
        operator.addWindow(holding("chg-1", T0.minusSeconds(60), end));
        assertThat(breaker().openUntil()).isEqualTo(end);
    }
}
