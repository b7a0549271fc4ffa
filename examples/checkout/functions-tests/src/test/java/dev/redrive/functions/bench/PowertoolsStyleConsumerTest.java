package dev.redrive.functions.bench;

import static dev.redrive.functions.bench.PowertoolsStyleConsumer.COMPLETED;
import static dev.redrive.functions.bench.PowertoolsStyleConsumer.DATA;
import static dev.redrive.functions.bench.PowertoolsStyleConsumer.EXPIRATION;
import static dev.redrive.functions.bench.PowertoolsStyleConsumer.ID;
import static dev.redrive.functions.bench.PowertoolsStyleConsumer.INPROGRESS;
import static dev.redrive.functions.bench.PowertoolsStyleConsumer.IN_PROGRESS_EXPIRATION;
import static dev.redrive.functions.bench.PowertoolsStyleConsumer.STATUS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.bench.PowertoolsStyleConsumer.BatchResult;
import dev.redrive.functions.bench.PowertoolsStyleConsumer.Outcome;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The baseline of the comparison does what Powertools' published algorithm does, on local DynamoDB: the calls each
 * case costs and the records it leaves, so that {@code bin/benchmark compare} compares against the real algorithm.
 * Its parallel batch mode: {@link PowertoolsStyleConsumerParallelTest}.
 */
@LocalAwsTest
class PowertoolsStyleConsumerTest extends PowertoolsStyleFixture {

    @Test
    void aNewRecordIsPutInProgressThenUpdatedToCompletedWithItsResponse() {
        IncomingMessage m = message("k-" + UUID.randomUUID(), null);
        Instant now = clock.instant();

        BatchResult result = run(List.of(m));

        assertThat(result.failedMessageIds()).isEmpty();
        assertThat(clients.dynamoDbCalls().snapshot()).isEqualTo(Map.of("PutItem", 1, "UpdateItem", 1));
        Map<String, AttributeValue> item = stored(m);
        assertThat(item.get(STATUS).s()).isEqualTo(COMPLETED);
        assertThat(item.get(DATA).s()).isEqualTo("done");
        assertThat(Long.parseLong(item.get(EXPIRATION).n())) // epoch seconds, an hour on
                .isBetween(now.getEpochSecond() + 3599, now.getEpochSecond() + 3601);
        assertThat(Long.parseLong(item.get(IN_PROGRESS_EXPIRATION).n())) // epoch milliseconds, the invocation's end
                .isBetween(
                        now.plus(REMAINING).toEpochMilli() - 1000,
                        now.plus(REMAINING).toEpochMilli() + 1000);
        assertThat(item.get(ID).s()).matches("fn\\.handle#[0-9a-f]{32}");
    }

    @Test
    void aDuplicateAfterCompletionIsRefusedAndAnsweredFromTheRecordTheRefusalReturned() {
        String key = "k-" + UUID.randomUUID();
        run(List.of(message(key, null)));
        handled.clear();
        clients.reset();

        BatchResult result = run(List.of(message(key, null)));

        assertThat(result.outcomes()).isEqualTo(Map.of(Outcome.DUPLICATE, 1));
        assertThat(result.failedMessageIds()).isEmpty();
        assertThat(handled).isEmpty();
        assertThat(clients.dynamoDbCalls().snapshot()).isEqualTo(Map.of("PutItem!", 1)); // ALL_OLD: no read
    }

    @Test
    void anInProgressRecordPastItsInProgressExpiryIsTakenOver() {
        IncomingMessage m = message("k-" + UUID.randomUUID(), null);
        seed(m, INPROGRESS, clock.instant().plusSeconds(3600), clock.instant().minusMillis(1));

        BatchResult result = run(List.of(m));

        assertThat(result.outcomes()).isEqualTo(Map.of(Outcome.APPLIED, 1));
        assertThat(handled).hasSize(1);
        assertThat(clients.dynamoDbCalls().snapshot()).isEqualTo(Map.of("PutItem", 1, "UpdateItem", 1));
    }

    @Test
    void aLiveInProgressRecordFailsTheRecordWithoutRunningTheHandler() {
        IncomingMessage m = message("k-" + UUID.randomUUID(), null);
        seed(m, INPROGRESS, clock.instant().plusSeconds(3600), clock.instant().plusSeconds(30));

        BatchResult result = run(List.of(m));

        assertThat(result.outcomes()).isEqualTo(Map.of(Outcome.IN_PROGRESS, 1));
        assertThat(result.failedMessageIds()).containsExactly(m.messageId());
        assertThat(handled).isEmpty();
        assertThat(clients.dynamoDbCalls().snapshot()).isEqualTo(Map.of("PutItem!", 1));
    }

    @Test
    void aCompletedRecordPastItsExpirationIsWrittenAgain() {
        IncomingMessage m = message("k-" + UUID.randomUUID(), null);
        seed(m, COMPLETED, clock.instant().minusSeconds(2), clock.instant().minusSeconds(3700));

        assertThat(run(List.of(m)).outcomes()).isEqualTo(Map.of(Outcome.APPLIED, 1));
        assertThat(handled).hasSize(1);
    }

    @Test
    void aFailingHandlerDeletesTheRecordSoTheRetryStartsAfresh() {
        IncomingMessage m = message("fail-" + UUID.randomUUID(), null);

        BatchResult result = run(List.of(m));

        assertThat(result.failedMessageIds()).containsExactly(m.messageId());
        assertThat(clients.dynamoDbCalls().snapshot()).isEqualTo(Map.of("PutItem", 1, "DeleteItem", 1));
        assertThat(stored(m)).isEmpty();
    }

    @Test
    void onAFifoBatchTheFirstFailureFailsTheRestUnprocessedAndOnAStandardOneNot() {
        String id = UUID.randomUUID().toString();
        List<IncomingMessage> fifo =
                List.of(message("a-" + id, "g"), message("fail-" + id, "g"), message("c-" + id, "g"));
        BatchResult r = run(fifo);
        assertThat(r.failedMessageIds())
                .containsExactly(fifo.get(1).messageId(), fifo.get(2).messageId());
        assertThat(r.outcomes()).containsEntry(Outcome.NOT_PROCESSED, 1);
        assertThat(handled).containsExactly("a-" + id, "fail-" + id);

        handled.clear();
        String other = UUID.randomUUID().toString();
        List<IncomingMessage> standard =
                List.of(message("a-" + other, null), message("fail-" + other, null), message("c-" + other, null));
        assertThat(run(standard).failedMessageIds())
                .containsExactly(standard.get(1).messageId());
        assertThat(handled).hasSize(3);
    }

    @Test
    void writeUnitsFollowThePricingRules() {
        assertThat(WriteUnits.of(Map.of("PutItem", 2, "PutItem!", 1, "UpdateItem", 1, "GetItem", 4), 900))
                .isEqualTo(4);
        assertThat(WriteUnits.of(Map.of("DeleteItem", 1), 1025)).isEqualTo(2);
        assertThatThrownBy(() -> WriteUnits.of(Map.of("TransactWriteItems", 1), 100))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(WriteUnits.numberBytes("1700000000")).isEqualTo(2); // "17": one byte, plus one
        assertThat(WriteUnits.itemBytes(
                        Map.of("id", AttributeValue.builder().s("abc").build())))
                .isEqualTo(5); // "id" and "abc"
    }
}
