package dev.redrive.core.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuarantineStateMachineTest {

    static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    static QuarantineRecord record() {
        return new QuarantineRecord(
                "q-1",
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin("email", "orders", "orders-dlq", "m-1", "email#k", T0),
                new DeadLetterEvidence(Classification.of(FailureClass.TRANSIENT, "Timeout", "slow"), T0, T0, 3),
                new PayloadLocation.Inline("{}"),
                Map.of(),
                0,
                "",
                List.of(),
                1);
    }

    @Test
    void theHappyPathOfAReplayIsAllowedAndEveryStepIsAudited() {
        Actor ada = Actor.person("ada");
        QuarantineRecord r = record().moveTo(QuarantineState.UNDER_REVIEW, ada, "looking", T0.plusSeconds(1))
                .moveTo(QuarantineState.SCHEMA_CHECK, ada, "schema", T0.plusSeconds(2))
                .moveTo(QuarantineState.IDEMPOTENCY_CHECK, ada, "idem", T0.plusSeconds(3))
                .moveTo(QuarantineState.REPLAYED, Actor.AUTOMATION, "sent", T0.plusSeconds(4));

        assertThat(r.state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(r.audit())
                .extracting(AuditEntry::from)
                .containsExactly(
                        QuarantineState.QUARANTINED,
                        QuarantineState.UNDER_REVIEW,
                        QuarantineState.SCHEMA_CHECK,
                        QuarantineState.IDEMPOTENCY_CHECK);
        assertThat(r.audit()).extracting(AuditEntry::actor).containsExactly(ada, ada, ada, Actor.AUTOMATION);
        assertThat(r.audit().get(3))
                .isEqualTo(new AuditEntry(
                        QuarantineState.IDEMPOTENCY_CHECK,
                        QuarantineState.REPLAYED,
                        T0.plusSeconds(4),
                        Actor.AUTOMATION,
                        "sent"));
        assertThat(r.note()).isEqualTo("sent");
    }

    @Test
    void skippingAChecksIsRejected() {
        QuarantineRecord r = record();
        assertThatThrownBy(() -> r.moveTo(QuarantineState.REPLAYED, Actor.AUTOMATION, "yolo", T0))
                .isInstanceOf(IllegalTransition.class)
                .hasMessageContaining("cannot go from QUARANTINED to REPLAYED");
        QuarantineRecord reviewing = r.moveTo(QuarantineState.UNDER_REVIEW, Actor.AUTOMATION, "", T0);
        assertThatThrownBy(() -> reviewing.moveTo(QuarantineState.IDEMPOTENCY_CHECK, Actor.AUTOMATION, "", T0))
                .isInstanceOf(IllegalTransition.class);
    }

    @Test
    void archivedIsTerminal() {
        QuarantineRecord archived = record().moveTo(QuarantineState.ARCHIVED, Actor.person("bo"), "junk", T0);
        for (QuarantineState to : QuarantineState.values()) {
            assertThatThrownBy(() -> archived.moveTo(to, Actor.AUTOMATION, "", T0))
                    .isInstanceOf(IllegalTransition.class);
        }
    }

    @Test
    void theGraphIsExactlyTheDesignedOne() {
        assertThat(QuarantineState.QUARANTINED.next())
                .isEqualTo(EnumSet.of(QuarantineState.UNDER_REVIEW, QuarantineState.ARCHIVED));
        assertThat(QuarantineState.SCHEMA_CHECK.next())
                .isEqualTo(EnumSet.of(QuarantineState.IDEMPOTENCY_CHECK, QuarantineState.ARCHIVED));
        assertThat(QuarantineState.IDEMPOTENCY_CHECK.next())
                .isEqualTo(EnumSet.of(QuarantineState.REPLAYED, QuarantineState.ARCHIVED, QuarantineState.QUARANTINED));
        assertThat(QuarantineState.REPLAYED.next()).isEqualTo(EnumSet.of(QuarantineState.QUARANTINED));
    }

    @Test
    void automationIsAReservedName() {
        assertThatThrownBy(() -> Actor.person("automation")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Actor.person(" ")).isInstanceOf(IllegalArgumentException.class);
    }
}
