package dev.redrive.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.breaker.BreakerState.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The shared circuit breaker's transitions, as pure rules: closed calls, open refuses and defers by the rest of its
 * period, one probe at a time once the period is over (a lease with a fencing token), a failed probe doubles the period
 * up to its cap, a successful one closes it.
 */
class CircuitBreakerRulesTest {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    static final BreakerPolicy POLICY =
            new BreakerPolicy(3, 0.5, 10, Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofSeconds(10));
    final CircuitBreakerRules rules = new CircuitBreakerRules(POLICY);

    @Test
    void aClosedBreakerLetsTheCallThrough() {
        assertThat(rules.admit(BreakerState.closed(), T0)).isInstanceOf(Admission.Call.class);
    }

    @Test
    void openingStartsThePolicysPeriodAndGrowsTheToken() {
        BreakerState open = rules.open(BreakerState.closed(), T0);

        assertThat(open.status()).isEqualTo(Status.OPEN);
        assertThat(open.openPeriod()).isEqualTo(Duration.ofSeconds(30));
        assertThat(open.openUntil()).isEqualTo(T0.plusSeconds(30));
        assertThat(open.openedAt()).isEqualTo(T0);
        assertThat(open.token()).isEqualTo(1);
    }

    @Test
    void anOpenBreakerRefusesAndDefersByTheRestOfItsPeriod() {
        BreakerState open = rules.open(BreakerState.closed(), T0);

        Admission admission = rules.admit(open, T0.plusSeconds(12));

        assertThat(admission)
                .isInstanceOfSatisfying(
                        Admission.Refuse.class, r -> assertThat(r.deferFor()).isEqualTo(Duration.ofSeconds(18)));
    }

    @Test
    void onceThePeriodIsOverOneCallerTakesTheProbeLeaseWithTheNextToken() {
        BreakerState open = rules.open(BreakerState.closed(), T0);

        Admission admission = rules.admit(open, T0.plusSeconds(30));

        assertThat(admission).isInstanceOfSatisfying(Admission.Probe.class, p -> {
            assertThat(p.expectedToken()).isEqualTo(open.token());
            assertThat(p.halfOpen().status()).isEqualTo(Status.HALF_OPEN);
            assertThat(p.halfOpen().token()).isEqualTo(open.token() + 1);
            assertThat(p.halfOpen().probeLeaseUntil()).isEqualTo(T0.plusSeconds(40));
            assertThat(p.halfOpen().openPeriod()).isEqualTo(open.openPeriod());
        });
    }

    @Test
    void whileAProbeHoldsItsLeaseEveryOtherCallerIsRefusedUntilTheLeaseEnds() {
        BreakerState halfOpen = probe(rules.open(BreakerState.closed(), T0), T0.plusSeconds(30));

        Admission admission = rules.admit(halfOpen, T0.plusSeconds(33));

        assertThat(admission)
                .isInstanceOfSatisfying(
                        Admission.Refuse.class, r -> assertThat(r.deferFor()).isEqualTo(Duration.ofSeconds(7)));
    }

    @Test
    void aProbeWhoseLeaseLapsedIsTakenOverWithANewToken() {
        BreakerState halfOpen = probe(rules.open(BreakerState.closed(), T0), T0.plusSeconds(30));

        Admission admission = rules.admit(halfOpen, T0.plusSeconds(41));

        assertThat(admission).isInstanceOfSatisfying(Admission.Probe.class, p -> {
            assertThat(p.expectedToken()).isEqualTo(halfOpen.token());
            assertThat(p.halfOpen().token()).isEqualTo(halfOpen.token() + 1);
            assertThat(p.halfOpen().probeLeaseUntil()).isEqualTo(T0.plusSeconds(51));
        });
    }

    @Test
    void aFailedProbeReopensForTwiceThePeriodUpToTheCap() {
        BreakerState halfOpen = probe(rules.open(BreakerState.closed(), T0), T0.plusSeconds(30));

        BreakerState reopened = rules.probeFailed(halfOpen, T0.plusSeconds(32));

        assertThat(reopened.status()).isEqualTo(Status.OPEN);
        assertThat(reopened.openPeriod()).isEqualTo(Duration.ofSeconds(60));
        assertThat(reopened.openUntil()).isEqualTo(T0.plusSeconds(92));
        assertThat(reopened.openedAt()).as("open since the first trip").isEqualTo(T0);
        assertThat(reopened.token()).isEqualTo(halfOpen.token() + 1);

        BreakerState again = rules.probeFailed(probe(reopened, T0.plusSeconds(92)), T0.plusSeconds(93));
        BreakerState capped = rules.probeFailed(probe(again, T0.plusSeconds(213)), T0.plusSeconds(214));
        assertThat(again.openPeriod()).isEqualTo(Duration.ofMinutes(2));
        assertThat(capped.openPeriod()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void aSuccessfulProbeClosesTheBreaker() {
        BreakerState halfOpen = probe(rules.open(BreakerState.closed(), T0), T0.plusSeconds(30));

        BreakerState closed = rules.probeSucceeded(halfOpen);

        assertThat(closed.status()).isEqualTo(Status.CLOSED);
        assertThat(closed.token()).isEqualTo(halfOpen.token() + 1);
        assertThat(rules.admit(closed, T0.plusSeconds(31))).isInstanceOf(Admission.Call.class);
    }

    @Test
    void onlyAHalfOpenBreakerTakesAProbesResultAndOnlyAClosedOneTrips() {
        BreakerState open = rules.open(BreakerState.closed(), T0);

        assertThatThrownBy(() -> rules.probeSucceeded(open)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> rules.probeFailed(BreakerState.closed(), T0))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> rules.open(open, T0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDeferralIsTheRestOfTheOpenPeriodBoundedBySqssTwelveHourVisibilityLimit() {
        assertThat(CircuitBreakerRules.deferralSeconds(Duration.ofMillis(18_400)))
                .isEqualTo(19);
        assertThat(CircuitBreakerRules.deferralSeconds(Duration.ZERO)).isEqualTo(1);
        assertThat(CircuitBreakerRules.deferralSeconds(Duration.ofHours(30))).isEqualTo(12 * 60 * 60);
    }

    @Test
    void thePolicyRefusesSettingsThatCannotWork() {
        assertThatThrownBy(() -> new BreakerPolicy(
                        0, 0.5, 10, Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BreakerPolicy(
                        3, 1.5, 10, Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BreakerPolicy(
                        3, 0.5, 10, Duration.ofMinutes(3), Duration.ofMinutes(2), Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() ->
                        new BreakerPolicy(3, 0.5, 10, Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private BreakerState probe(BreakerState open, Instant now) {
        return ((Admission.Probe) rules.admit(open, now)).halfOpen();
    }

    @Test
    void aHoldFollowsTheWindowsThatAskForItAndLeavesALongerOpeningOfItsOwn() {
        Instant end = T0.plus(Duration.ofHours(2));
        BreakerState held = CircuitBreakerRules.withHold(BreakerState.closed(), T0, Optional.of(end));
        assertThat(held).isEqualTo(new BreakerState(Status.OPEN, 1, T0, Duration.ofHours(2), end, null, true));
        assertThat(CircuitBreakerRules.withHold(held, T0.plusSeconds(5), Optional.of(end)))
                .as("held so already")
                .isSameAs(held);

        Instant shorter = T0.plus(Duration.ofMinutes(30));
        BreakerState shortened = CircuitBreakerRules.withHold(held, T0.plusSeconds(60), Optional.of(shorter));
        assertThat(shortened.openUntil()).isEqualTo(shorter);
        assertThat(shortened.openedAt()).as("when it first opened, kept").isEqualTo(T0);
        assertThat(shortened.token()).isEqualTo(2);

        BreakerState released = CircuitBreakerRules.withHold(shortened, T0.plusSeconds(90), Optional.empty());
        assertThat(released)
                .isEqualTo(
                        new BreakerState(Status.OPEN, 3, T0, shortened.openPeriod(), T0.plusSeconds(90), null, false));
        assertThat(rules.admit(released, T0.plusSeconds(90))).isInstanceOf(Admission.Probe.class);
        assertThat(CircuitBreakerRules.withHold(released, T0.plusSeconds(91), Optional.empty()))
                .as("no hold to end")
                .isSameAs(released);

        BreakerState ownLonger =
                new BreakerState(Status.OPEN, 7, T0, Duration.ofHours(3), T0.plus(Duration.ofHours(3)), null);
        assertThat(CircuitBreakerRules.withHold(ownLonger, T0, Optional.of(end)))
                .isSameAs(ownLonger);
        assertThat(CircuitBreakerRules.withHold(ownLonger, T0, Optional.empty()))
                .as("not a hold: its own opening is not ended by windows")
                .isSameAs(ownLonger);
        assertThatThrownBy(() -> CircuitBreakerRules.withHold(BreakerState.closed(), T0, Optional.of(T0)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyTheLiveProbeLeasesTicketIsTheProbe() {
        BreakerState open = rules.open(BreakerState.closed(), T0);
        BreakerState halfOpen = ((Admission.Probe) rules.admit(open, open.openUntil())).halfOpen();
        Instant during = open.openUntil().plusSeconds(1);

        assertThat(rules.admit(halfOpen, during, Optional.of(new ProbeTicket("mail", halfOpen.token()))))
                .isEqualTo(new Admission.Probing(halfOpen));
        assertThat(rules.admit(halfOpen, during, Optional.of(new ProbeTicket("mail", open.token()))))
                .isInstanceOf(Admission.Refuse.class);
        assertThat(rules.admit(halfOpen, halfOpen.probeLeaseUntil(), Optional.of(new ProbeTicket("mail", 2))))
                .as("its lease lapsed: a probe as any other")
                .isInstanceOf(Admission.Probe.class);
        assertThat(ProbeTicket.decode("email-provider:12")).contains(new ProbeTicket("email-provider", 12));
        assertThat(ProbeTicket.decode("email-provider:x")).isEmpty();
        assertThat(ProbeTicket.decode(":3")).isEmpty();
        assertThat(ProbeTicket.decode(null)).isEmpty();
    }

    @Test
    void aProbeAskedForEndsTheOpenPeriodNowButNotAHoldOrAClosedBreaker() {
        BreakerState open = rules.open(BreakerState.closed(), T0);
        BreakerState due = CircuitBreakerRules.probeNow(open, T0.plusSeconds(5));
        assertThat(due.openUntil()).isEqualTo(T0.plusSeconds(5));
        assertThat(due.token()).isEqualTo(open.token() + 1);
        assertThat(CircuitBreakerRules.probeNow(due, T0.plusSeconds(6)))
                .as("due already")
                .isSameAs(due);
        BreakerState halfOpen = ((Admission.Probe) rules.admit(due, T0.plusSeconds(6))).halfOpen();
        assertThat(rules.admit(CircuitBreakerRules.probeNow(halfOpen, T0.plusSeconds(7)), T0.plusSeconds(7)))
                .as("a probe that has not answered: the next call probes again")
                .isInstanceOf(Admission.Probe.class);
        assertThatThrownBy(() -> CircuitBreakerRules.probeNow(BreakerState.closed(), T0))
                .hasMessageContaining("CLOSED");
        BreakerState held = CircuitBreakerRules.withHold(open, T0, Optional.of(T0.plusSeconds(600)));
        assertThatThrownBy(() -> CircuitBreakerRules.probeNow(held, T0.plusSeconds(1)))
                .hasMessageContaining("held OPEN by maintenance windows");
    }
}
