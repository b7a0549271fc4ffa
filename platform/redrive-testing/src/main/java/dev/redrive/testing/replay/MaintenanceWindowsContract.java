package dev.redrive.testing.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.BreakerWrite;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.WindowChange;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The contract of {@link MaintenanceWindows}, for the in-memory fake and DynamoDB. */
public abstract class MaintenanceWindowsContract {

    protected abstract MaintenanceWindows windows();

    /** The breakers kept with {@link #windows()} (on AWS, in the same control table). */
    protected abstract BreakerStore breakers();

    static final Instant T = Instant.parse("2026-12-04T22:00:00Z");

    static MaintenanceWindow window(String id, boolean holds) {
        return new MaintenanceWindow(id, "mail-" + id, T, T.plusSeconds(3600), "ada", "CHG-9", holds);
    }

    /** The hold of {@code dependency}'s closed breaker, as a window's change writes it. */
    static BreakerWrite held(String dependency, long token) {
        BreakerState held = CircuitBreakerRules.withHold(BreakerState.closed(), T, Optional.of(T.plusSeconds(3600)));
        BreakerState next = token == 0 ? held : held.rewritten();
        return new BreakerWrite(
                dependency, token, next, BreakerTransition.of(Status.CLOSED, next, T, "held by a window"));
    }

    @Test
    void aChangeIsWrittenOnlyOverTheWindowAsItWasRead() {
        MaintenanceWindows w = windows();
        String id = "w-" + UUID.randomUUID();
        MaintenanceWindow first = window(id, false);
        MaintenanceWindow second = new MaintenanceWindow(id, first.dependency(), T, T.plusSeconds(60), "bo", "", true);

        assertThat(w.change(new WindowChange(id, Optional.empty(), Optional.of(first)), List.of()))
                .isTrue();
        assertThat(w.change(new WindowChange(id, Optional.empty(), Optional.of(second)), List.of()))
                .as("added by someone else meanwhile")
                .isFalse();
        assertThat(w.change(new WindowChange(id, Optional.of(second), Optional.empty()), List.of()))
                .as("not the window stored")
                .isFalse();
        assertThat(w.find(id)).contains(first);
        assertThat(w.change(new WindowChange(id, Optional.of(first), Optional.of(second)), List.of()))
                .isTrue();
        assertThat(w.find(id)).contains(second);
        assertThat(w.change(new WindowChange(id, Optional.of(second), Optional.empty()), List.of()))
                .isTrue();
        assertThat(w.find(id)).isEmpty();
        assertThat(w.change(new WindowChange(id, Optional.of(second), Optional.empty()), List.of()))
                .as("removed already")
                .isFalse();
    }

    @Test
    void aChangeAndItsBreakersAreWrittenTogetherOrNotAtAll() {
        MaintenanceWindows w = windows();
        String id = "w-" + UUID.randomUUID();
        MaintenanceWindow holding = window(id, true);
        String dependency = holding.dependency();

        assertThat(w.change(new WindowChange(id, Optional.empty(), Optional.of(holding)), List.of(held(dependency, 1))))
                .as("the breaker's token is 0, not 1")
                .isFalse();
        assertThat(w.find(id)).as("nothing written").isEmpty();
        assertThat(breakers().read(dependency)).isEqualTo(BreakerState.closed());

        assertThat(w.change(new WindowChange(id, Optional.empty(), Optional.of(holding)), List.of(held(dependency, 0))))
                .isTrue();
        assertThat(w.find(id)).contains(holding);
        assertThat(breakers().read(dependency)).isEqualTo(held(dependency, 0).next());
        assertThat(breakers().history(dependency))
                .containsExactly(held(dependency, 0).entry());

        assertThat(w.change(
                        new WindowChange(id, Optional.of(window(id, false)), Optional.empty()),
                        List.of(held(dependency, 1))))
                .as("the window is not the one read")
                .isFalse();
        assertThat(breakers().read(dependency).token())
                .as("its breaker untouched")
                .isEqualTo(1);
        assertThat(w.change(new WindowChange(id, Optional.of(holding), Optional.empty()), List.of(held(dependency, 1))))
                .isTrue();
        assertThat(w.find(id)).isEmpty();
        assertThat(breakers().read(dependency)).isEqualTo(held(dependency, 1).next());
    }

    @Test
    void windowsAreAddedListedInStartOrderAndRemoved() {
        MaintenanceWindows w = windows();
        Instant t = Instant.parse("2026-11-29T02:00:00Z");
        String late = "w-" + UUID.randomUUID();
        String early = "w-" + UUID.randomUUID();
        w.add(new MaintenanceWindow(late, "payments", t.plusSeconds(7200), t.plusSeconds(9000), "ada", "CHG-2"));
        w.add(new MaintenanceWindow(early, "email-provider", t, t.plusSeconds(3600), "bo", ""));

        assertThat(w.list()).extracting(MaintenanceWindow::id).containsSubsequence(early, late);
        assertThat(w.find(early).orElseThrow())
                .isEqualTo(new MaintenanceWindow(early, "email-provider", t, t.plusSeconds(3600), "bo", ""));
        assertThat(w.remove(early)).isTrue();
        assertThat(w.remove(early)).isFalse();
        assertThat(w.find(early)).isEmpty();
    }

    @Test
    void aWindowCoversItsDependencyFromStartInclusiveToEndExclusive() {
        Instant t = Instant.parse("2026-11-29T02:00:00Z");
        MaintenanceWindow w = new MaintenanceWindow("w", "payments", t, t.plusSeconds(60), "ada", "");
        assertThat(w.covers("payments", t)).isTrue();
        assertThat(w.covers("payments", t.plusSeconds(59))).isTrue();
        assertThat(w.covers("payments", t.plusSeconds(60))).isFalse();
        assertThat(w.covers("email-provider", t)).isFalse();
        assertThatThrownBy(() -> new MaintenanceWindow("w", "payments", t, t.minusSeconds(1), "ada", ""))
                .hasMessageContaining("ends")
                .hasMessageContaining("before it starts");
        assertThatThrownBy(() -> new MaintenanceWindow("chg-1\nforged", "payments", t, t.plusSeconds(60), "ada", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one line of text");
        assertThatThrownBy(() -> new MaintenanceWindow(" ", "payments", t, t.plusSeconds(60), "ada", ""))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whetherAWindowHoldsItsBreakerIsKept() {
        MaintenanceWindows w = windows();
        Instant t = Instant.parse("2026-12-04T22:00:00Z");
        String holding = "w-" + UUID.randomUUID();
        String plain = "w-" + UUID.randomUUID();
        MaintenanceWindow holds =
                new MaintenanceWindow(holding, "email-provider", t, t.plusSeconds(60), "ada", "", true);
        w.add(holds);
        w.add(new MaintenanceWindow(plain, "email-provider", t, t.plusSeconds(60), "ada", ""));

        assertThat(w.find(holding)).contains(holds);
        assertThat(w.find(plain).orElseThrow().holdsBreaker()).isFalse();
        assertThat(w.list())
                .filteredOn(MaintenanceWindow::holdsBreaker)
                .extracting(MaintenanceWindow::id)
                .contains(holding)
                .doesNotContain(plain);
    }
}
