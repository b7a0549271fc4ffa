package dev.redrive.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.util.Optional;

/** Dead letters of the email consumer as the sweeper records them, for the CLI's rigs (on local AWS and in memory). */
final class DeadLetters {

    static final String QUEUE = "order-placed-email";
    static final String CONSUMER = "confirmation-email";

    private DeadLetters() {}

    /** The classification the mail provider's failures get; TRANSIENT ones name the dependency. */
    static Classification classification(FailureClass c, String errorType) {
        return new Classification(
                c,
                errorType,
                errorType + " from the mail provider",
                c == FailureClass.TRANSIENT ? "email-provider" : null);
    }

    /** A QUARANTINED dead letter of the email consumer with {@code body} inline, arrived at {@code arrived}. */
    static QuarantineRecord quarantined(String id, String body, Classification classification, Instant arrived) {
        String key = eventId(body).map(e -> CONSUMER + "#" + e).orElse(null);
        String reason =
                "arrived in " + QUEUE + "-dlq: " + classification.failureClass() + " " + classification.errorType();
        return new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin(CONSUMER, QUEUE, QUEUE + "-dlq", "m-" + id, key, arrived),
                new DeadLetterEvidence(classification, arrived.minusSeconds(90), arrived.minusSeconds(30), 3),
                new PayloadLocation.Inline(body),
                Map.of("traceparent", MessageAttribute.ofString("00-abc-def-01")),
                0,
                reason,
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, arrived, Actor.AUTOMATION, reason)),
                0);
    }

    private static Optional<String> eventId(String body) {
        try {
            var node = Json.MAPPER.readTree(body);
            return node.hasNonNull("eventId") ? Optional.of(node.get("eventId").asText()) : Optional.empty();
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }
}
