package dev.redrive.testing;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Builds quarantine records for core tests and the contract suites. */
public final class Records {

    public static final Instant ARRIVED = Instant.parse("2026-11-29T12:00:00Z");

    private Records() {}

    /** A QUARANTINED TRANSIENT dead letter of {@code sourceQueue} with {@code body} inline. */
    public static QuarantineRecord quarantined(String id, String sourceQueue, String body) {
        return new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin("email", sourceQueue, sourceQueue + "-dlq", "m-" + id, "email#k-" + id, ARRIVED),
                new DeadLetterEvidence(
                        new Classification(FailureClass.TRANSIENT, "Timeout", "slow", "payments"),
                        ARRIVED.minusSeconds(60),
                        ARRIVED.minusSeconds(30),
                        3),
                new PayloadLocation.Inline(body),
                Map.of("trace", MessageAttribute.ofString("t-1")),
                0,
                "arrived",
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, ARRIVED, Actor.AUTOMATION, "arrived")),
                0);
    }

    /** {@code r} with its payload kept aside under {@code ref} instead of inline. */
    public static QuarantineRecord storedAside(QuarantineRecord r, String ref) {
        return new QuarantineRecord(
                r.id(),
                r.state(),
                r.origin(),
                r.evidence(),
                new PayloadLocation.Aside(ref),
                r.attributes(),
                r.replayCount(),
                r.note(),
                r.audit(),
                r.version());
    }
}
