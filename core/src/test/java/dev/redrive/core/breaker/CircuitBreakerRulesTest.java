package dev.redrive.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.breaker.BreakerState.Status;
import java.time.Duration;
import java.time.Instant;
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
}
