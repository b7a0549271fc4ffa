package dev.redrive.aws.ledger;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A tombstone's expiry on local AWS: the archiving save writes {@code expiresAt} (epoch seconds) = now + the tombstone
 * TTL, an active record has none, a record brought back from the archive loses it, and a save by a ledger without a
 * TTL (a person's, through the CLI) keeps it. Moto never expires items by TTL, so the attribute's value is what is
 * asserted; the table's TTL specification is the CDK construct's ({@code StorageProtectionTest}).
 */
@LocalAwsTest
class TombstoneExpiryOnLocalAwsTest {

    private static String quarantine;

    @BeforeAll
    static void tables() {
        quarantine = ControlTables.quarantine(LocalAws.shared());
    }

    private final Instant now = Instant.parse("2026-12-06T12:00:00Z");
    private final Clock clock = Clock.fixed(now, ZoneOffset.UTC);
    private final DynamoDbQuarantineLedger ledger = new DynamoDbQuarantineLedger(
            LocalAws.shared().dynamoDb(), quarantine, clock, Optional.of(Duration.ofDays(365)));
    private final DynamoDbQuarantineLedger withoutTtl =
            new DynamoDbQuarantineLedger(LocalAws.shared().dynamoDb(), quarantine, clock);

    private QuarantineRecord record(String id) {
        Instant at = now.truncatedTo(ChronoUnit.MILLIS);
        return new QuarantineRecord(
                id,
                QuarantineState.QUARANTINED,
                new DeadLetterOrigin("expiry", "expiry-q", "expiry-q-dlq", "m-" + id, "expiry#k-" + id, at),
                new DeadLetterEvidence(Classification.of(FailureClass.TRANSIENT, "Timeout", "slow"), at, at, 3, null),
                new PayloadLocation.Inline("{}"),
                Map.of(),
                0,
                "arrived",
                List.of(new AuditEntry(null, QuarantineState.QUARANTINED, at, Actor.AUTOMATION, "arrived")),
                0);
    }

    private Map<String, AttributeValue> item(String id) {
        return LocalAws.shared()
                .dynamoDb()
                .getItem(b ->
                        b.tableName(quarantine).key(QuarantineItems.key(id)).consistentRead(true))
                .item();
    }

    @Test
    void aTombstoneExpiresItsTtlAfterItsArchivingAndAnActiveRecordNever() {
        String id = "t-" + UUID.randomUUID();
        assertThat(ledger.insertIfAbsent(record(id), Optional.empty())).isTrue();
        assertThat(item(id)).doesNotContainKey("expiresAt");

        QuarantineRecord stored = ledger.find(id).orElseThrow();
        assertThat(ledger.save(stored.tombstone("archive/2026/12/06/x.json"), Optional.empty()))
                .isPresent();

        assertThat(item(id).get("expiresAt"))
                .isEqualTo(AttributeValue.fromN(
                        Long.toString(now.plus(Duration.ofDays(365)).getEpochSecond())));
        assertThat(item(id)).containsKey("storedState").doesNotContainKey("state");
    }

    @Test
    void aSaveWithoutTtlKeepsTheExpiryAndARecordBroughtBackLosesIt() {
        String id = "t-" + UUID.randomUUID();
        ledger.insertIfAbsent(record(id), Optional.empty());
        ledger.save(ledger.find(id).orElseThrow().tombstone("archive/x.json"), Optional.empty());
        AttributeValue expiry = item(id).get("expiresAt");

        QuarantineRecord tombstone = withoutTtl.find(id).orElseThrow();
        assertThat(withoutTtl.save(tombstone, Optional.empty())).isPresent();
        assertThat(item(id).get("expiresAt")).as("a person's save keeps it").isEqualTo(expiry);

        QuarantineRecord back = withoutTtl.find(id).orElseThrow().withPayload(new PayloadLocation.Inline("{\"n\":1}"));
        assertThat(withoutTtl.save(back, Optional.empty())).isPresent();
        assertThat(item(id)).as("an active record never expires").doesNotContainKey("expiresAt");
    }
}
