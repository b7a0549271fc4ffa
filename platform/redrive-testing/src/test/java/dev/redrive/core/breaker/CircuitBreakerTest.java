package dev.redrive.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.testing.breaker.InMemoryBreakerStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * One sandbox's view of a shared breaker: cached for a few seconds, written only on transitions, failing open when its
 * own store fails. Several sandboxes are several {@link CircuitBreaker}s on one store.
 */
class CircuitBreakerTest {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    static final BreakerPolicy POLICY =
            new BreakerPolicy(3, 1.0, 10, Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofSeconds(10));
    static final Duration CACHE = Duration.ofSeconds(5);

    final CountingStore store = new CountingStore(new InMemoryBreakerStore());
    final List<String> events = new ArrayList<>();
    final BreakerListener listener = new BreakerListener() {
        @Override
        public void transitioned(String dependency, BreakerTransition transition) {
            events.add(transition.from() + "->" + transition.to());
        }

        @Override
        public void refused(String dependency) {
            events.add("refused");
        }

        @Override
        public void probed(String dependency, boolean succeeded) {
            events.add(succeeded ? "probe ok" : "probe failed");
        }

        @Override
        public void storeFailed(String dependency, RuntimeException failure) {
            events.add("store failed");
        }
    };

    CircuitBreaker sandbox() {
        return new CircuitBreaker("mail", store, new CircuitBreakerRules(POLICY), CACHE, listener);
    }

    @Test
    void theHealthyPathWritesNothingAndReadsOncePerCachePeriod() {
        CircuitBreaker breaker = sandbox();

        for (int i = 0; i < 100; i++) {
            Instant now = T0.plusMillis(i * 100L); // 10 s of calls
            CircuitBreaker.Permit permit = breaker.admit(now);
            assertThat(permit.calls()).isTrue();
            breaker.answered(permit, now);
        }

        assertThat(store.writes.get()).isZero();
        assertThat(store.reads.get()).isEqualTo(2);
    }

    @Test
    void consecutiveTransientFailuresOpenItOnceAndTheNextCallIsRefusedWithTheRestOfThePeriod() {
        CircuitBreaker breaker = sandbox();

        for (int i = 0; i < 3; i++) {
            breaker.failedTransiently(breaker.admit(T0), T0);
        }
        CircuitBreaker.Permit refused = breaker.admit(T0.plusSeconds(10));

        assertThat(store.writes.get()).isEqualTo(1);
        assertThat(store.read("mail").status()).isEqualTo(Status.OPEN);
        assertThat(refused.calls()).isFalse();
        assertThat(refused.deferSeconds()).isEqualTo(20);
        assertThat(events).containsExactly("CLOSED->OPEN", "refused");
    }

    @Test
    void anotherSandboxSeesTheOpenBreakerOnceItsCacheExpires() {
        CircuitBreaker a = sandbox();
        CircuitBreaker b = sandbox();
        assertThat(b.admit(T0).calls()).isTrue(); // b caches CLOSED

        for (int i = 0; i < 3; i++) {
            a.failedTransiently(a.admit(T0.plusSeconds(1)), T0.plusSeconds(1));
        }

        assertThat(b.admit(T0.plusSeconds(4)).calls()).as("still cached closed").isTrue();
        assertThat(b.admit(T0.plusSeconds(6)).calls()).as("cache expired: open").isFalse();
    }

    @Test
    void afterThePeriodExactlyOneSandboxProbesAndItsSuccessClosesTheBreakerForAll() {
        CircuitBreaker a = sandbox();
        CircuitBreaker b = sandbox();
        for (int i = 0; i < 3; i++) {
            a.failedTransiently(a.admit(T0), T0);
        }
        Instant over = T0.plusSeconds(31);

        CircuitBreaker.Permit first = a.admit(over);
        CircuitBreaker.Permit second = b.admit(over);

        assertThat(first.probe()).isTrue();
        assertThat(second.calls()).as("the other sandbox lost the probe lease").isFalse();
        a.answered(first, over.plusMillis(200));
        assertThat(store.read("mail").status()).isEqualTo(Status.CLOSED);
        assertThat(b.admit(over.plusSeconds(6)).calls()).isTrue();
        assertThat(events).contains("OPEN->HALF_OPEN", "probe ok", "HALF_OPEN->CLOSED");
    }

    @Test
    void aRefusalSaysWhenTheBreakerOpened() {
        CircuitBreaker a = sandbox();
        for (int i = 0; i < 3; i++) {
            a.failedTransiently(a.admit(T0), T0);
        }
        assertThat(a.admit(T0.plusSeconds(10)).openedAt()).isEqualTo(T0);
    }

    @Test
    void aFailedProbeReopensForTwiceThePeriod() {
        CircuitBreaker a = sandbox();
        for (int i = 0; i < 3; i++) {
            a.failedTransiently(a.admit(T0), T0);
        }
        Instant over = T0.plusSeconds(31);

        a.failedTransiently(a.admit(over), over);

        BreakerState reopened = store.read("mail");
        assertThat(reopened.status()).isEqualTo(Status.OPEN);
        assertThat(reopened.openPeriod()).isEqualTo(Duration.ofSeconds(60));
        assertThat(a.admit(over.plusSeconds(1)).deferSeconds()).isEqualTo(59);
        assertThat(events).contains("probe failed", "HALF_OPEN->OPEN");
    }

    @Test
    void theHistoryKeepsEveryTransitionOfAnOutageWithWhenAndWhy() {
        CircuitBreaker a = sandbox();
        CircuitBreaker b = sandbox();
        for (int i = 0; i < 3; i++) {
            a.failedTransiently(a.admit(T0), T0);
        }
        Instant firstProbe = T0.plusSeconds(31);
        a.failedTransiently(a.admit(firstProbe), firstProbe.plusMillis(300));
        Instant secondProbe = firstProbe.plusSeconds(61);
        CircuitBreaker.Permit probe = b.admit(secondProbe);
        b.answered(probe, secondProbe.plusMillis(120));

        assertThat(store.history("mail"))
                .containsExactly(
                        new BreakerTransition(
                                5,
                                secondProbe.plusMillis(120),
                                Status.HALF_OPEN,
                                Status.CLOSED,
                                "the probe succeeded: the dependency answered"),
                        new BreakerTransition(
                                4,
                                secondProbe,
                                Status.OPEN,
                                Status.HALF_OPEN,
                                "the open period ended: one call probes the dependency"),
                        new BreakerTransition(
                                3,
                                firstProbe.plusMillis(300),
                                Status.HALF_OPEN,
                                Status.OPEN,
                                "the probe failed transiently: open again for PT1M"),
                        new BreakerTransition(
                                2,
                                firstProbe,
                                Status.OPEN,
                                Status.HALF_OPEN,
                                "the open period ended: one call probes the dependency"),
                        new BreakerTransition(
                                1,
                                T0,
                                Status.CLOSED,
                                Status.OPEN,
                                "3 transient failures in a row in one sandbox (the limit is 3): open for PT30S"));
    }

    @Test
    void aFailureRateOverTheWindowIsTheReasonItOpened() {
        BreakerPolicy byRate =
                new BreakerPolicy(100, 0.5, 10, Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofSeconds(10));
        CircuitBreaker breaker = new CircuitBreaker("mail", store, new CircuitBreakerRules(byRate), CACHE, listener);

        for (int i = 0; i < 10; i++) {
            CircuitBreaker.Permit permit = breaker.admit(T0);
            if (i == 1 || i == 4 || i == 7 || i == 8) {
                breaker.answered(permit, T0);
            } else {
                breaker.failedTransiently(permit, T0);
            }
        }

        assertThat(store.history("mail"))
                .singleElement()
                .extracting(BreakerTransition::reason)
                .isEqualTo("6 of the last 10 calls in one sandbox failed transiently (over 50%): open for PT30S");
    }

    @Test
    void aLapsedProbeLeaseIsItsOwnTransitionInTheHistory() {
        CircuitBreaker a = sandbox();
        for (int i = 0; i < 3; i++) {
            a.failedTransiently(a.admit(T0), T0);
        }
        Instant over = T0.plusSeconds(31);
        assertThat(a.admit(over).probe()).isTrue(); // its sandbox froze: no result

        Instant lapsed = over.plus(POLICY.probeLease()).plusMillis(1);
        assertThat(sandbox().admit(lapsed).probe()).isTrue();

        assertThat(store.history("mail").get(0))
                .isEqualTo(new BreakerTransition(
                        3,
                        lapsed,
                        Status.HALF_OPEN,
                        Status.HALF_OPEN,
                        "the last probe's lease lapsed without a result: one call probes again"));
    }

    @Test
    void whenItsStoreFailsItFailsOpenAndReportsIt() {
        store.failing = true;
        CircuitBreaker breaker = sandbox();

        CircuitBreaker.Permit permit = breaker.admit(T0);
        for (int i = 0; i < 3; i++) {
            breaker.failedTransiently(breaker.admit(T0), T0);
        }

        assertThat(permit.calls()).isTrue();
        assertThat(breaker.admit(T0.plusSeconds(1)).calls()).isTrue();
        assertThat(events).contains("store failed").doesNotContain("CLOSED->OPEN");
    }

    /** The store with its calls counted, and able to fail. */
    static final class CountingStore implements BreakerStore {
        final BreakerStore delegate;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        volatile boolean failing;

        CountingStore(BreakerStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public BreakerState read(String dependency) {
            if (failing) {
                throw new IllegalStateException("control table unreachable");
            }
            reads.incrementAndGet();
            return delegate.read(dependency);
        }

        @Override
        public boolean transition(String dependency, long expectedToken, BreakerState next, BreakerTransition entry) {
            if (failing) {
                throw new IllegalStateException("control table unreachable");
            }
            writes.incrementAndGet();
            return delegate.transition(dependency, expectedToken, next, entry);
        }

        @Override
        public List<BreakerTransition> history(String dependency) {
            return delegate.history(dependency);
        }
    }
}
