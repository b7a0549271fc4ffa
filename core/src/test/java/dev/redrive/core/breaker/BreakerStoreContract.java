package dev.redrive.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.breaker.BreakerState.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
        assertThat(store().transition(dependency, 0, open)).isTrue();
        assertThat(store().read(dependency)).isEqualTo(open);

        Admission.Probe probe = (Admission.Probe) RULES.admit(open, open.openUntil());
        assertThat(store().transition(dependency, probe.expectedToken(), probe.halfOpen()))
                .isTrue();
        assertThat(store().read(dependency)).isEqualTo(probe.halfOpen());

        BreakerState closed = RULES.probeSucceeded(probe.halfOpen());
        assertThat(store().transition(dependency, probe.halfOpen().token(), closed))
                .isTrue();
        assertThat(store().read(dependency)).isEqualTo(closed);
        assertThat(closed.status()).isEqualTo(Status.CLOSED);
    }

    @Test
    void aTransitionFromAStaleTokenIsRefusedAndChangesNothing() {
        String dependency = dependency();
        BreakerState open = RULES.open(BreakerState.closed(), T0);
        store().transition(dependency, 0, open);

        BreakerState otherOpening = RULES.open(BreakerState.closed(), T0.plusSeconds(5));

        assertThat(store().transition(dependency, 0, otherOpening)).isFalse();
        assertThat(store().read(dependency)).isEqualTo(open);
    }

    @Test
    void breakersOfDifferentDependenciesAreApart() {
        String mail = dependency();
        String payments = dependency();
        store().transition(mail, 0, RULES.open(BreakerState.closed(), T0));

        assertThat(store().read(payments)).isEqualTo(BreakerState.closed());
    }

    @Test
    void ofSandboxesRacingForTheProbeExactlyOneTakesIt() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 20; round++) {
                String dependency = dependency();
                BreakerState open = RULES.open(BreakerState.closed(), T0);
                store().transition(dependency, 0, open);
                CyclicBarrier start = new CyclicBarrier(4);
                List<Future<Boolean>> attempts = new ArrayList<>();
                for (int sandbox = 0; sandbox < 4; sandbox++) {
                    Instant now = open.openUntil().plusMillis(sandbox);
                    attempts.add(pool.submit((Callable<Boolean>) () -> {
                        BreakerState seen = store().read(dependency);
                        Admission.Probe probe = (Admission.Probe) RULES.admit(seen, now);
                        start.await(10, TimeUnit.SECONDS);
                        return store().transition(dependency, probe.expectedToken(), probe.halfOpen());
                    }));
                }
                int probes = 0;
                for (Future<Boolean> a : attempts) {
                    probes += a.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(probes).as("probes taken in round %d", round).isEqualTo(1);
                assertThat(store().read(dependency).status()).isEqualTo(Status.HALF_OPEN);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anOpenPeriodKeepsItsMilliseconds() {
        String dependency = dependency();
        BreakerState open = new BreakerState(Status.OPEN, 7, T0, Duration.ofMillis(1500), T0.plusMillis(1500), null);

        store().transition(dependency, 0, open);

        assertThat(store().read(dependency)).isEqualTo(open);
    }
}
