package dev.redrive.core.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The contract of {@link MaintenanceWindows}, for the in-memory fake and DynamoDB. */
public abstract class MaintenanceWindowsContract {

    protected abstract MaintenanceWindows windows();

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
