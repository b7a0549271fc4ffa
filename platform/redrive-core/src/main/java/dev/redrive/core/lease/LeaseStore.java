package dev.redrive.core.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Named leases with fencing tokens (on DynamoDB: one conditional write per acquisition, as for claims). A second
 * holder is refused while the lease is live; after it lapses the next holder gets token + 1, and everything the old
 * holder writes under its token is rejected.
 */
public interface LeaseStore {

    /** Acquires {@code name} for {@code duration}, or empty when someone else holds it. */
    Optional<Lease> acquire(String name, String owner, Duration duration, Instant now);

    /** Gives the lease back early if still held with this token; a no-op otherwise. */
    void release(Lease lease, Instant now);

    /** Whether {@code fence} still holds its lease at {@code now}. */
    boolean holds(LeaseToken fence, Instant now);
}
