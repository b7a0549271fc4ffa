package dev.redrive.testing.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.lease.Lease;
import dev.redrive.core.lease.LeaseStore;
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

/** The contract of {@link LeaseStore}, for the in-memory fake and DynamoDB. */
public abstract class LeaseStoreContract {

    protected static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    protected abstract LeaseStore store();

    protected static String name() {
        return "sweeper#dlq-" + UUID.randomUUID();
    }

    @Test
    void aFreeLeaseIsGrantedWithTokenOneAndHeld() {
        String name = name();
        Lease lease = store().acquire(name, "a", Duration.ofMinutes(5), T0).orElseThrow();

        assertThat(lease.token()).isEqualTo(1);
        assertThat(lease.expiresAt()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
        assertThat(store().holds(lease.fence(), T0.plusSeconds(10))).isTrue();
    }

    @Test
    void aHeldLeaseIsRefusedToOthers() {
        String name = name();
        store().acquire(name, "a", Duration.ofMinutes(5), T0);
        assertThat(store().acquire(name, "b", Duration.ofMinutes(5), T0.plusSeconds(60)))
                .isEmpty();
    }

    @Test
    void aLapsedLeaseGoesToTheNextHolderWithTheNextTokenAndFencesTheOldOne() {
        String name = name();
        Lease old = store().acquire(name, "a", Duration.ofMinutes(5), T0).orElseThrow();
        Instant later = T0.plus(Duration.ofMinutes(6));

        Lease next = store().acquire(name, "b", Duration.ofMinutes(5), later).orElseThrow();

        assertThat(next.token()).isEqualTo(2);
        assertThat(store().holds(old.fence(), later)).isFalse();
        assertThat(store().holds(next.fence(), later)).isTrue();
        store().release(old, later); // the old holder's release must not free the new holder's lease
        assertThat(store().holds(next.fence(), later.plusSeconds(1))).isTrue();
    }

    @Test
    void aReleasedLeaseCanBeTakenAtOnce() {
        String name = name();
        Lease lease = store().acquire(name, "a", Duration.ofMinutes(5), T0).orElseThrow();
        store().release(lease, T0.plusSeconds(1));

        Optional<Lease> next = store().acquire(name, "b", Duration.ofMinutes(5), T0.plusSeconds(2));

        assertThat(next).map(Lease::token).contains(2L);
        assertThat(store().holds(lease.fence(), T0.plusSeconds(2))).isFalse();
    }

    @Test
    void concurrentAcquisitionsGrantExactlyOneLease() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 30; round++) {
                String name = name();
                CyclicBarrier start = new CyclicBarrier(8);
                List<Future<Optional<Lease>>> attempts = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    String owner = "sweeper-" + t;
                    attempts.add(pool.submit((Callable<Optional<Lease>>) () -> {
                        start.await(10, TimeUnit.SECONDS);
                        return store().acquire(name, owner, Duration.ofMinutes(5), T0);
                    }));
                }
                int granted = 0;
                for (Future<Optional<Lease>> a : attempts) {
                    granted += a.get(30, TimeUnit.SECONDS).isPresent() ? 1 : 0;
                }
                assertThat(granted).as("leases granted in round %d", round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
