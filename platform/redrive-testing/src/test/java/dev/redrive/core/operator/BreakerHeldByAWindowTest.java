package dev.redrive.core.operator;

import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.redrive.core.breaker.Admission;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.CircuitBreakerRules;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A maintenance window can hold its dependency's breaker open for the whole window, through the operator port: every
 * sandbox then refuses the dependency until the window's end and a probe decides after it; removing the window early
 * ends the hold at once.
 */
class BreakerHeldByAWindowTest {

    static final String MAIL = "email-provider";
    static final CircuitBreakerRules RULES = new CircuitBreakerRules(BreakerPolicy.DEFAULT);

    final SweeperFixture f = new SweeperFixture();
    final InMemoryBreakerStore breakers = f.breakers;
    final OperatorPort operator = f.operator().breakers(breakers, List.of(MAIL)).build();
    final Instant end = T0.plus(Duration.ofHours(2));

    MaintenanceWindow window(Instant start, Instant end) {
        return operator.addWindow(new MaintenanceWindow("chg-1", MAIL, start, end, "cab", "mail provider maintenance"));
    }

    @Test
    void aClosedBreakerIsHeldOpenUntilTheWindowsEndAndProbesAfterIt() {
        window(T0.minusSeconds(60), end);

        BreakerState held = operator.holdBreakerOpen("chg-1");

        assertThat(held).isEqualTo(new BreakerState(Status.OPEN, 1, T0, Duration.ofHours(2), end, null, true));
        assertThat(breakers.read(MAIL)).isEqualTo(held);
        assertThat(RULES.admit(held, end.minusMillis(1)))
                .as("refused to the last millisecond of the window")
                .isInstanceOfSatisfying(
                        Admission.Refuse.class, r -> assertThat(r.deferFor()).isEqualTo(Duration.ofMillis(1)));
        assertThat(RULES.admit(held, end)).as("after it, one probe decides").isInstanceOf(Admission.Probe.class);
    }

    @Test
    void aBreakerAlreadyOpenKeepsWhenItOpenedAndOneOpenPastTheWindowIsLeftAsItIs() {
        BreakerState open = RULES.open(BreakerState.closed(), T0.minusSeconds(10));
        breakers.transition(MAIL, 0, open, BreakerTransition.of(Status.CLOSED, open, T0, "mail down"));
        window(T0.minusSeconds(60), end);

        BreakerState held = operator.holdBreakerOpen("chg-1");

        assertThat(held.openedAt()).isEqualTo(T0.minusSeconds(10));
        assertThat(held.openUntil()).isEqualTo(end);
        assertThat(held.token()).isEqualTo(open.token() + 1);
        assertThat(operator.holdBreakerOpen("chg-1"))
                .as("held twice: one write")
                .isEqualTo(held);
        assertThat(breakers.read(MAIL).token()).isEqualTo(open.token() + 1);
    }

    @Test
    void removingTheWindowEndsTheHoldSoTheNextCallProbes() {
        window(T0.minusSeconds(60), end);
        operator.holdBreakerOpen("chg-1");
        f.clock.advance(Duration.ofMinutes(20));

        assertThat(operator.removeWindow("chg-1")).isTrue();

        BreakerState released = breakers.read(MAIL);
        assertThat(released.status()).isEqualTo(Status.OPEN);
        assertThat(released.openUntil()).isEqualTo(T0.plus(Duration.ofMinutes(20)));
        assertThat(RULES.admit(released, f.clock.instant())).isInstanceOf(Admission.Probe.class);
    }

    @Test
    void removingAWindowLeavesABreakerItDidNotHoldAlone() {
        window(T0.minusSeconds(60), end);
        BreakerState open = RULES.open(BreakerState.closed(), T0);
        breakers.transition(MAIL, 0, open, BreakerTransition.of(Status.CLOSED, open, T0, "mail down"));

        operator.removeWindow("chg-1");

        assertThat(breakers.read(MAIL)).isEqualTo(open);
    }

    @Test
    void aWindowThatHasNotStartedOrIsOverOrNamesNoSharedBreakerHoldsNothingAndSaysWhy() {
        window(T0.plusSeconds(600), end);
        assertThatThrownBy(() -> operator.holdBreakerOpen("chg-1"))
                .hasMessage("window chg-1 runs from " + T0.plusSeconds(600) + " to " + end + "; a breaker is held "
                        + "open only while its window lasts (a window that holds its breaker from its start is added "
                        + "with it: the sweeper holds it at its first run after the start)");
        operator.addWindow(new MaintenanceWindow("chg-2", "payments", T0.minusSeconds(60), end, "cab", ""));
        assertThatThrownBy(() -> operator.holdBreakerOpen("chg-2"))
                .hasMessage("no circuit breaker of payments is shared here (the breakers are [email-provider]); "
                        + "window chg-2 cannot hold one open");
        assertThatThrownBy(() -> operator.holdBreakerOpen("chg-9")).hasMessage("no maintenance window with id 'chg-9'");
        assertThat(breakers.read(MAIL)).isEqualTo(BreakerState.closed());
    }

    @Test
    void theHoldAndItsReleaseAreInTheBreakersHistoryWithTheWindow() {
        window(T0.minusSeconds(60), end);
        BreakerState held = operator.holdBreakerOpen("chg-1");
        f.clock.advance(Duration.ofMinutes(5));

        operator.removeWindow("chg-1");

        assertThat(operator.breakerHistories()).containsOnlyKeys(MAIL);
        assertThat(operator.breakerHistories().get(MAIL))
                .containsExactly(
                        new BreakerTransition(
                                2,
                                T0.plus(Duration.ofMinutes(5)),
                                Status.OPEN,
                                Status.OPEN,
                                "maintenance window chg-1 was removed: its hold ends, the next call probes"),
                        new BreakerTransition(
                                1,
                                T0,
                                Status.CLOSED,
                                Status.OPEN,
                                "held open by maintenance window chg-1 until its end, " + end));
        assertThat(held.token()).isEqualTo(1);
    }

    final BreakerHolds sweeperHolds = new BreakerHolds(breakers, f.windows, List.of(MAIL));

    MaintenanceWindow holdingWindow(String id, Instant start, Instant end) {
        return operator.addWindow(new MaintenanceWindow(id, MAIL, start, end, "cab", "vendor notice", true));
    }

    @Test
    void aWindowThatHoldsItsBreakerFromItsStartHoldsNothingBeforeItAndIsHeldAtTheFirstSweepAfterIt() {
        Instant start = T0.plus(Duration.ofMinutes(10));
        holdingWindow("chg-7", start, end);

        assertThat(breakers.read(MAIL)).as("added before its start").isEqualTo(BreakerState.closed());
        assertThat(operator.window("chg-7").orElseThrow().holdsBreaker()).isTrue();
        assertThat(sweeperHolds.holdDue(start.minusMillis(1))).isEmpty();
        assertThat(breakers.read(MAIL)).isEqualTo(BreakerState.closed());

        Instant firstSweep = start.plusSeconds(90);
        assertThat(sweeperHolds.holdDue(firstSweep)).containsExactly("chg-7");

        BreakerState held = breakers.read(MAIL);
        assertThat(held)
                .isEqualTo(new BreakerState(
                        Status.OPEN, 1, firstSweep, Duration.between(firstSweep, end), end, null, true));
        assertThat(breakers.history(MAIL))
                .singleElement()
                .isEqualTo(new BreakerTransition(
                        1,
                        firstSweep,
                        Status.CLOSED,
                        Status.OPEN,
                        "held open by maintenance window chg-7 until its end, " + end));
        assertThat(sweeperHolds.holdDue(firstSweep.plus(Duration.ofMinutes(5))))
                .as("held already: the next sweeps write nothing")
                .isEmpty();
        assertThat(breakers.read(MAIL)).isEqualTo(held);
        assertThat(sweeperHolds.holdDue(end)).as("over").isEmpty();
        assertThat(RULES.admit(breakers.read(MAIL), end)).isInstanceOf(Admission.Probe.class);
    }

    @Test
    void aWindowAddedWhileItLastsWithItsHoldIsHeldAtOnce() {
        holdingWindow("chg-8", T0.minusSeconds(60), end);

        assertThat(breakers.read(MAIL))
                .isEqualTo(new BreakerState(Status.OPEN, 1, T0, Duration.ofHours(2), end, null, true));
        assertThat(sweeperHolds.holdDue(T0.plusSeconds(1))).isEmpty();
    }

    @Test
    void aWindowThatAsksToHoldABreakerNotSharedHereIsRefusedAndNotStored() {
        assertThatThrownBy(() -> operator.addWindow(
                        new MaintenanceWindow("chg-9", "payments", T0.plusSeconds(60), end, "cab", "", true)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no circuit breaker of payments is shared here (the breakers are [email-provider]); "
                        + "window chg-9 cannot hold one open");
        assertThat(operator.window("chg-9")).isEmpty();
    }

    @Test
    void aHoldingWindowRemovedBeforeItsStartNeverHoldsAndAnotherWindowsHoldIsLeft() {
        Instant start = T0.plus(Duration.ofMinutes(10));
        holdingWindow("chg-10", start, end);
        operator.removeWindow("chg-10");

        assertThat(sweeperHolds.holdDue(start.plusSeconds(1))).isEmpty();
        assertThat(breakers.read(MAIL).status()).isEqualTo(Status.CLOSED);
        assertThat(breakers.history(MAIL))
                .as("its removal fences out a sweep that read it (the next token), and nothing else")
                .singleElement()
                .isEqualTo(new BreakerTransition(
                        1,
                        T0,
                        Status.CLOSED,
                        Status.CLOSED,
                        "maintenance window chg-10 was removed: the breaker is unchanged"));
    }

    @Test
    void overlappingHoldingWindowsHoldTheBreakerToTheLaterEnd() {
        Instant later = end.plus(Duration.ofHours(1));
        holdingWindow("chg-11", T0.minusSeconds(60), end);
        holdingWindow("chg-12", T0.minusSeconds(30), later);

        assertThat(breakers.read(MAIL).openUntil()).isEqualTo(later);
        assertThat(sweeperHolds.holdDue(T0.plusSeconds(300))).isEmpty();
        assertThat(breakers.read(MAIL).openUntil()).isEqualTo(later);
    }

    @Test
    void aPersonEndsAHoldTheWindowsKeepTheirApprovalAndTheNextCallProbes() {
        holdingWindow("chg-11", T0.minusSeconds(60), end);
        holdingWindow("chg-12", T0.minusSeconds(30), end.plus(Duration.ofHours(1)));
        holdingWindow("chg-13", T0.plus(Duration.ofMinutes(30)), end);
        f.clock.advance(Duration.ofMinutes(5));

        List<String> stopped = operator.releaseBreaker(MAIL, Actor.person("bo"));

        assertThat(stopped).containsExactlyInAnyOrder("chg-11", "chg-12");
        BreakerState released = breakers.read(MAIL);
        assertThat(released.held()).isFalse();
        assertThat(released.openUntil()).isEqualTo(f.clock.instant());
        assertThat(RULES.admit(released, f.clock.instant())).isInstanceOf(Admission.Probe.class);
        assertThat(operator.windows())
                .extracting(MaintenanceWindow::id, MaintenanceWindow::holdsBreaker)
                .containsExactly(tuple("chg-11", false), tuple("chg-12", false), tuple("chg-13", true));
        assertThat(breakers.history(MAIL).get(0).reason())
                .isEqualTo("maintenance window chg-12 stopped holding it (released by bo): its hold ends, the next "
                        + "call probes");
        assertThat(sweeperHolds.holdDue(f.clock.instant()))
                .as("nothing asks for a hold now")
                .isEmpty();
        assertThat(sweeperHolds.holdDue(T0.plus(Duration.ofMinutes(31))))
                .as("the window that starts later still holds it from its start")
                .containsExactly("chg-13");
    }

    @Test
    void aPersonAsksForAProbeOfAnOpenBreakerNotOfAHeldOrClosedOne() {
        assertThatThrownBy(() -> operator.probeBreaker(MAIL, Actor.person("bo")))
                .hasMessage("the email-provider breaker is CLOSED: calls go through, there is nothing to probe");
        BreakerState open = RULES.open(BreakerState.closed(), T0);
        breakers.transition(MAIL, 0, open, BreakerTransition.of(Status.CLOSED, open, T0, "mail down"));
        f.clock.advance(Duration.ofSeconds(10));

        BreakerState due = operator.probeBreaker(MAIL, Actor.person("bo"));

        assertThat(due.openUntil()).isEqualTo(f.clock.instant());
        assertThat(RULES.admit(due, f.clock.instant())).isInstanceOf(Admission.Probe.class);
        assertThat(operator.probeBreaker(MAIL, Actor.person("bo")))
                .as("due already: unchanged")
                .isEqualTo(due);
        assertThat(breakers.history(MAIL).get(0).reason())
                .isEqualTo("a probe was asked for by bo: the next call probes");

        holdingWindow("chg-14", T0, end);
        assertThatThrownBy(() -> operator.probeBreaker(MAIL, Actor.person("bo")))
                .hasMessage("the email-provider breaker is held OPEN until " + end
                        + " by maintenance windows [chg-14]: their hold ends first");
        assertThatThrownBy(() -> operator.releaseBreaker("payments", Actor.person("bo")))
                .hasMessage("no circuit breaker of payments is shared here (the breakers are [email-provider])");
    }
}
