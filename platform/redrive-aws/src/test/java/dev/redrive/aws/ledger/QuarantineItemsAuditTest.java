package dev.redrive.aws.ledger;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.redrive.testing.localaws.LocalAws;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The audit trail's item layout on DynamoDB (local AWS): a transition is stored as it always was (no {@code action}),
 * an entry that changes no state carries its action, and an item written before actions existed still reads.
 */
class QuarantineItemsAuditTest {

    private static final Instant AT = Instant.parse("2026-11-29T12:00:00Z");
    private static LocalAws aws;
    private static String quarantine;
    private static DynamoDbQuarantineLedger ledger;

    @BeforeAll
    static void tables() {
        aws = LocalAws.shared();
        String control = ControlTables.control(aws);
        quarantine = ControlTables.quarantine(aws);
        ledger = new DynamoDbQuarantineLedger(aws.dynamoDb(), quarantine, control, Clock.fixed(AT, ZoneOffset.UTC));
    }

    private static QuarantineRecord record(String id) {
        return new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin("email", "orders", "orders-dlq", "m-" + id, "email#k-" + id, AT),
                new DeadLetterEvidence(Classification.of(FailureClass.TRANSIENT, "Timeout", "slow"), AT, AT, 3),
                new PayloadLocation.Inline("{\"card\":\"4111\"}"),
                Map.of("trace", MessageAttribute.ofString("t")),
                0,
                "arrived",
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, AT, Actor.AUTOMATION, "arrived")),
                0);
    }

    private static List<Map<String, AttributeValue>> storedAudit(String id) {
        return aws
                .dynamoDb()
                .getItem(b ->
                        b.tableName(quarantine).key(QuarantineItems.key(id)).consistentRead(true))
                .item()
                .get("audit")
                .l()
                .stream()
                .map(AttributeValue::m)
                .toList();
    }

    @Test
    void aRevealIsStoredWithItsActionAndTransitionsAsBefore() {
        String id = "q-" + UUID.randomUUID();
        ledger.insertIfAbsent(record(id), java.util.Optional.empty());
        QuarantineRecord revealed = ledger.save(
                        ledger.find(id).orElseThrow().revealed(Actor.person("ada"), "revealed $.card", AT),
                        java.util.Optional.empty())
                .orElseThrow();

        List<Map<String, AttributeValue>> audit = storedAudit(id);

        assertThat(audit).hasSize(2);
        assertThat(audit.get(0)).doesNotContainKey("action");
        assertThat(audit.get(1).get("action").s()).isEqualTo("PAYLOAD_REVEALED");
        assertThat(ledger.find(id).orElseThrow()).isEqualTo(revealed);
    }

    @Test
    void anItemWrittenBeforeActionsExistedReadsAsTransitions() {
        String id = "q-" + UUID.randomUUID();
        Map<String, AttributeValue> item = new HashMap<>(QuarantineItems.toItem(record(id)
                .moveTo(QuarantineState.UNDER_REVIEW, Actor.person("ada"), "look", AT.plusSeconds(1))
                .withVersion(1)));
        // The old layout: from, to, at, actor, reason; nothing else.
        List<AttributeValue> old = item.get("audit").l().stream()
                .map(v -> {
                    Map<String, AttributeValue> m = new HashMap<>(v.m());
                    m.remove("action");
                    return AttributeValue.fromM(m);
                })
                .toList();
        item.put("audit", AttributeValue.fromL(old));
        aws.dynamoDb().putItem(b -> b.tableName(quarantine).item(item));

        QuarantineRecord read = ledger.find(id).orElseThrow();

        assertThat(read.audit())
                .extracting(AuditEntry::to, AuditEntry::action)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(QuarantineState.QUARANTINED, AuditEntry.Action.TRANSITION),
                        org.assertj.core.groups.Tuple.tuple(
                                QuarantineState.UNDER_REVIEW, AuditEntry.Action.TRANSITION));
        assertThat(read.lastChangedAt()).isEqualTo(AT.plusSeconds(1));
    }
}
