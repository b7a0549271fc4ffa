package dev.redrive.testing.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.breaker.Admission;
import dev.redrive.core.breaker.BreakerPolicy;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.breaker.CircuitBreakerRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link BreakerStore}, for the in-memory fake and DynamoDB: a breaker never written reads closed with
 * token 0; a transition is written only from the token it was decided from, so of sandboxes racing for the same
 * transition (the probe lease above all) exactly one wins.
 */
public abstract class BreakerStoreContract {

    protected static final Instant T0 = Instant.parse("2026-11-29T12:00:00.123Z");
    private static final CircuitBreakerRules RULES = new CircuitBreakerRules(BreakerPolicy.DEFAULT);

    protected abstract BreakerStore store();

    protected static String dependency() {
        return "mail-" + UUID.randomUUID();
    }

    @Test
    void aBreakerNeverWrittenIsClosedWithTokenZero() {
        assertThat(store().read(dependency())).isEqualTo(BreakerState.closed());
    }

    @Test
    void everyStateRoundTripsExactly() {
        String dependency = dependency();
        BreakerState open = RULES.open(BreakerState.closed(), T0);
        assertThat(store().transition(dependency, 0, open, entry(Status.CLOSED, open)))
                .isTrue();
        assertThat(store().read(dependency)).isEqualTo(open);

        Admission.Probe probe = (Admission.Probe) RULES.admit(open, open.openUntil());
        assertThat(store().transition(
                                dependency,
                                probe.expectedToken(),
                                probe.halfOpen(),
                                entry(Status.OPEN, probe.halfOpen())))
                .isTrue();
        assertThat(store().read(dependency)).isEqualTo(probe.halfOpen());

        BreakerState closed = RULES.probeSucceeded(probe.halfOpen());
        assertThat(store().transition(dependency, probe.halfOpen().token(), closed, entry(Status.HALF_OPEN, closed)))
                .isTrue();
        assertThat(store().read(dependency)).isEqualTo(closed);
        assertThat(closed.status()).isEqualTo(Status.CLOSED);
    }

    @Test
    void aHoldByMaintenanceWindowsRoundTripsAndIsGoneWithIt() {
        String dependency = dependency();
        BreakerState held =
                CircuitBreakerRules.withHold(BreakerState.closed(), T0, Optional.of(T0.plus(Duration.ofHours(2))));
        assertThat(held.held()).isTrue();
        store().transition(dependency, 0, held, entry(Status.CLOSED, held));
        assertThat(store().read(dependency)).isEqualTo(held);

        BreakerState released = CircuitBreakerRules.withHold(held, T0.plusSeconds(60), Optional.empty());
        assertThat(store().transition(dependency, 1, released, entry(Status.OPEN, released)))
                .isTrue();
        assertThat(store().read(dependency)).isEqualTo(released);
        assertThat(store().read(dependency).held()).isFalse();
    }

    @Test
    void aTransitionFromAStaleTokenIsRefusedAndChangesNothing() {
        String dependency = dependency();
        BreakerState open = RULES.open(BreakerState.closed(), T0);
        store().transition(dependency, 0, open, entry(Status.CLOSED, open));

        BreakerState otherOpening = RULES.open(BreakerState.closed(), T0.plusSeconds(5));

        assertThat(store().transition(dependency, 0, otherOpening, entry(Status.CLOSED, otherOpening)))
                .isFalse();
        assertThat(store().read(dependency)).isEqualTo(open);
        assertThat(store().history(dependency)).containsExactly(entry(Status.CLOSED, open));
    }

    @Test
    void breakersOfDifferentDependenciesAreApart() {
        String mail = dependency();
        String payments = dependency();
        BreakerState open = RULES.open(BreakerState.closed(), T0);
        store().transition(mail, 0, open, entry(Status.CLOSED, open));

        assertThat(store().read(payments)).isEqualTo(BreakerState.closed());
        assertThat(store().history(payments)).isEmpty();
    }

    @Test
    void ofSandboxesRacingForTheProbeExactlyOneTakesIt() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 20; round++) {
                String dependency = dependency();
                BreakerState open = RULES.open(BreakerState.closed(), T0);
                store().transition(dependency, 0, open, entry(Status.CLOSED, open));
                CyclicBarrier start = new CyclicBarrier(4);
                List<Future<Boolean>> attempts = new ArrayList<>();
                for (int sandbox = 0; sandbox < 4; sandbox++) {
                    Instant now = open.openUntil().plusMillis(sandbox);
                    attempts.add(pool.submit((Callable<Boolean>) () -> {
                        BreakerState seen = store().read(dependency);
                        Admission.Probe probe = (Admission.Probe) RULES.admit(seen, now);
                        start.await(10, TimeUnit.SECONDS);
                        return store().transition(
                                        dependency,
                                        probe.expectedToken(),
                                        probe.halfOpen(),
                                        BreakerTransition.of(Status.OPEN, probe.halfOpen(), now, "sandbox at " + now));
                    }));
                }
                int probes = 0;
                for (Future<Boolean> a : attempts) {
                    probes += a.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(probes).as("probes taken in round %d", round).isEqualTo(1);
                assertThat(store().read(dependency).status()).isEqualTo(Status.HALF_OPEN);
                assertThat(store().history(dependency))
                        .as("the history of round %d: the opening and the one probe taken", round)
                        .extracting(BreakerTransition::to)
                        .containsExactly(Status.HALF_OPEN, Status.OPEN);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anOpenPeriodKeepsItsMilliseconds() {
        String dependency = dependency();
        BreakerState open = new BreakerState(Status.OPEN, 1, T0, Duration.ofMillis(1500), T0.plusMillis(1500), null);

        store().transition(dependency, 0, open, entry(Status.CLOSED, open));

        assertThat(store().read(dependency)).isEqualTo(open);
    }

    @Test
    void aBreakerNeverWrittenHasNoHistory() {
        assertThat(store().history(dependency())).isEmpty();
    }

    @Test
    void everyTransitionIsKeptInTheHistoryNewestFirstExactly() {
        String dependency = dependency();
        BreakerState open = RULES.open(BreakerState.closed(), T0);
        BreakerTransition opened = new BreakerTransition(
                1, T0, Status.CLOSED, Status.OPEN, "5 transient failures in a row: open for PT30S « é »");
        store().transition(dependency, 0, open, opened);
        Admission.Probe probe = (Admission.Probe) RULES.admit(open, open.openUntil());
        BreakerTransition probing =
                BreakerTransition.of(Status.OPEN, probe.halfOpen(), open.openUntil(), "the open period ended");
        store().transition(dependency, 1, probe.halfOpen(), probing);
        BreakerState reopened =
                RULES.probeFailed(probe.halfOpen(), open.openUntil().plusMillis(250));
        BreakerTransition failed = BreakerTransition.of(
                Status.HALF_OPEN, reopened, open.openUntil().plusMillis(250), "the probe failed");
        store().transition(dependency, 2, reopened, failed);

        assertThat(store().history(dependency)).containsExactly(failed, probing, opened);
    }

    @Test
    void theHistoryKeepsTheLastTransitionsOnly() {
        String dependency = dependency();
        BreakerState state = BreakerState.closed();
        Instant now = T0;
        int transitions = BreakerTransition.KEPT + 5;
        for (int i = 0; i < transitions; i++) {
            BreakerState next;
            if (state.status() == Status.CLOSED) {
                next = RULES.open(state, now);
            } else if (state.status() == Status.OPEN) {
                now = state.openUntil();
                next = ((Admission.Probe) RULES.admit(state, now)).halfOpen();
            } else {
                next = RULES.probeFailed(state, now);
            }
            assertThat(store().transition(dependency, state.token(), next, entry(state.status(), next, now)))
                    .isTrue();
            state = next;
        }

        List<BreakerTransition> history = store().history(dependency);

        assertThat(history).extracting(BreakerTransition::token).containsExactlyElementsOf(tokensDown(transitions));
        assertThat(history.get(0)).isEqualTo(entry(Status.HALF_OPEN, state, now));
        assertThat(store().read(dependency)).isEqualTo(state);
    }

    @Test
    void anEntryThatDoesNotDescribeTheStateWrittenIsRefusedAndWritesNothing() {
        String dependency = dependency();
        BreakerState open = RULES.open(BreakerState.closed(), T0);
        BreakerTransition wrongState = new BreakerTransition(1, T0, Status.CLOSED, Status.HALF_OPEN, "wrong");
        BreakerTransition wrongToken = new BreakerTransition(2, T0, Status.CLOSED, Status.OPEN, "wrong");

        assertThatThrownBy(() -> store().transition(dependency, 0, open, wrongState))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not describe");
        assertThatThrownBy(() -> store().transition(dependency, 0, open, wrongToken))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(store().read(dependency)).isEqualTo(BreakerState.closed());
        assertThat(store().history(dependency)).isEmpty();
    }

    @Test
    void aTransitionThatSkipsATokenIsRefused() {
        String dependency = dependency();
        BreakerState skipping = new BreakerState(Status.OPEN, 2, T0, Duration.ofSeconds(30), T0.plusSeconds(30), null);

        assertThatThrownBy(() -> store().transition(dependency, 0, skipping, entry(Status.CLOSED, skipping)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("writes token 1, not 2");
        assertThat(store().history(dependency)).isEmpty();
    }

    protected static BreakerTransition entry(Status from, BreakerState next) {
        return entry(from, next, T0);
    }

    private static BreakerTransition entry(Status from, BreakerState next, Instant at) {
        return BreakerTransition.of(from, next, at, from + " to " + next.status() + " at " + at);
    }

    private static List<Long> tokensDown(int newest) {
        List<Long> tokens = new ArrayList<>();
        for (long t = newest; t > newest - BreakerTransition.KEPT; t--) {
            tokens.add(t);
        }
        return tokens;
    }
}
