package dev.redrive.testing.lease;

import dev.redrive.core.lease.Lease;
import dev.redrive.core.lease.LeaseStore;
import dev.redrive.core.lease.LeaseToken;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The in-memory fake of the lease store: the same rules as DynamoDB under one lock. */
public final class InMemoryLeaseStore implements LeaseStore {

    private final Map<String, Lease> leases = new HashMap<>();
    private final Map<String, Long> lastToken = new HashMap<>();

    @Override
    public synchronized Optional<Lease> acquire(String name, String owner, Duration duration, Instant now) {
        Lease current = leases.get(name);
        if (current != null && !current.expired(now)) {
            return Optional.empty();
        }
        long token = lastToken.getOrDefault(name, 0L) + 1;
        Lease granted = new Lease(name, owner, token, now.plus(duration));
        leases.put(name, granted);
        lastToken.put(name, token);
        return Optional.of(granted);
    }

    @Override
    public synchronized void release(Lease lease, Instant now) {
        Lease current = leases.get(lease.name());
        if (current != null && current.token() == lease.token()) {
            leases.put(lease.name(), new Lease(lease.name(), lease.owner(), lease.token(), now));
        }
    }

    @Override
    public synchronized boolean holds(LeaseToken fence, Instant now) {
        Lease current = leases.get(fence.name());
        return current != null && current.token() == fence.token() && !current.expired(now);
    }
}
