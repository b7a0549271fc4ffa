package dev.redrive.aws.claims;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.FencedWrite;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.sweeper.ArrivedDeadLetter.AttachedFailure;
import dev.redrive.core.sweeper.DeadLetterNotes.NoteKey;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The consumer's build version on the claims table, on local AWS: a failure's version is stored with it on the claim
 * and in a dead-letter note, a later failure replaces it (or removes it when it has none), and an item written before
 * versions were recorded still reads, with none.
 */
@LocalAwsTest
class ClaimBuildVersionOnLocalAwsTest {

    static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private static LocalAws aws;
    private static String table;

    @BeforeAll
    static void createTable() {
        aws = LocalAws.shared();
        table = "version-claims-" + UUID.randomUUID().toString().substring(0, 8);
        LocalResources.createTable(aws.dynamoDb(), table);
    }

    private final DynamoDbClaimStore store =
            new DynamoDbClaimStore(LocalAws.shared().dynamoDb(), table);

    private static IdempotencyKey newKey() {
        return new IdempotencyKey("versions", "order-" + UUID.randomUUID());
    }

    private static ClaimRequest request(IdempotencyKey key, Instant now) {
        return new ClaimRequest(
                key, "h1", now.plusSeconds(30), now.plus(Duration.ofDays(1)), new MessageOrigin("orders", "m-1"));
    }

    private static FailureRecord failure(Instant at, String version) {
        return new FailureRecord(
                Classification.of(FailureClass.TRANSIENT, "Timeout", "slow"), 1, T0, at, "orders", version);
    }

    private FailureRecord stored(IdempotencyKey key, Instant now) {
        return store.find(key, now).orElseThrow().lastFailure();
    }

    @Test
    void aReleasedFailureKeepsItsVersionAndTheNextFailureReplacesIt() {
        IdempotencyKey key = newKey();
        store.claim(request(key, T0), T0);
        assertThat(store.release(key, 1, failure(T0, "v1"), T0)).isEqualTo(FencedWrite.APPLIED);
        assertThat(stored(key, T0).buildVersion()).isEqualTo("v1");

        Instant t1 = T0.plusSeconds(5);
        assertThat(store.claim(request(key, t1), t1)).isInstanceOf(ClaimOutcome.Acquired.class);
        store.release(key, 2, failure(t1, "v2"), t1);
        assertThat(stored(key, t1)).isEqualTo(failure(t1, "v2"));

        Instant t2 = T0.plusSeconds(10);
        store.claim(request(key, t2), t2);
        store.release(key, 3, failure(t2, ""), t2);
        assertThat(stored(key, t2).buildVersion())
                .as("a failure of a consumer that records none does not keep an earlier failure's")
                .isEmpty();
    }

    @Test
    void aFailureRecordedWithoutTheClaimKeepsItsVersion() {
        IdempotencyKey key = newKey();

        store.recordFailure(request(key, T0), failure(T0, "2026.12.06-abc123"), T0);

        assertThat(stored(key, T0).buildVersion()).isEqualTo("2026.12.06-abc123");
    }

    @Test
    void aClaimWrittenBeforeVersionsWereRecordedStillReadsWithNone() {
        IdempotencyKey key = newKey();
        Map<String, AttributeValue> old = new HashMap<>(ClaimItems.key(key));
        old.put(ClaimItems.STATUS, AttributeValue.fromS("FAILED"));
        old.put(ClaimItems.FENCING_TOKEN, AttributeValue.fromN("1"));
        old.put(ClaimItems.LEASE_EXPIRES_AT, AttributeValue.fromN(Long.toString(T0.toEpochMilli())));
        old.put(
                ClaimItems.EXPIRES_AT,
                AttributeValue.fromN(Long.toString(T0.plus(Duration.ofDays(1)).getEpochSecond())));
        old.put(ClaimItems.FAILURE_COUNT, AttributeValue.fromN("1"));
        old.put(ClaimItems.VERSION, AttributeValue.fromN("1"));
        old.put(ClaimItems.FAILURE_CLASS, AttributeValue.fromS("TRANSIENT"));
        old.put(ClaimItems.ERROR_TYPE, AttributeValue.fromS("Timeout"));
        old.put(ClaimItems.REASON, AttributeValue.fromS("slow"));
        old.put(ClaimItems.DEPENDENCY, AttributeValue.fromS(""));
        old.put(ClaimItems.FAILED_ATTEMPT, AttributeValue.fromN("1"));
        old.put(ClaimItems.FIRST_FAILED_AT, AttributeValue.fromN(Long.toString(T0.toEpochMilli())));
        old.put(ClaimItems.LAST_FAILED_AT, AttributeValue.fromN(Long.toString(T0.toEpochMilli())));
        old.put(ClaimItems.FAILURE_QUEUE, AttributeValue.fromS("orders"));
        aws.dynamoDb().putItem(b -> b.tableName(table).item(old));

        FailureRecord read = stored(key, T0);

        assertThat(read)
                .isEqualTo(new FailureRecord(
                        Classification.of(FailureClass.TRANSIENT, "Timeout", "slow"), 1, T0, T0, "orders"));
        assertThat(read.buildVersion()).isEmpty();
    }

    @Test
    void aDeadLetterNoteKeepsTheVersion() {
        DynamoDbDeadLetterNotes notes = new DynamoDbDeadLetterNotes(aws.dynamoDb(), table);
        NoteKey key = new NoteKey("orders-dlq", "fp-" + UUID.randomUUID());

        notes.keep(key, new AttachedFailure("versions", null, "m-1", failure(T0, "v9")), T0.plus(Duration.ofDays(1)));

        assertThat(notes.find(key, T0).orElseThrow().failure().buildVersion()).isEqualTo("v9");
    }
}
