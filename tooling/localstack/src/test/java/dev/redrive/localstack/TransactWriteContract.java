package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * What Redrive relies on from {@code TransactWriteItems}, on local AWS: all or nothing across tables (items,
 * attributes, index queries, stream records, counts), and cancellation reasons per operation in request order with
 * the old item when {@code ReturnValuesOnConditionCheckFailure=ALL_OLD} asks for it.
 *
 * <p>Two tables take part: {@code orders} (hash key, an index with every attribute, a stream with both images) and
 * {@code ledger} (hash and range key, a keys-only index, a keys-only stream), so that both of moto's item layouts and
 * both stream views are covered. Run against each way the launcher can roll a transaction back.
 */
abstract class TransactWriteContract {

    static final String CONDITION_FAILED_MESSAGE = "The conditional request failed";

    private final TransactFixtures.Orders orders = new TransactFixtures.Orders();
    private final TransactFixtures.Ledger ledger = new TransactFixtures.Ledger();

    abstract DynamoDbClient dynamoDb();

    abstract DynamoDbStreamsClient streams();

    /** Empties the emulator: no table is left from the test before. */
    abstract void reset();

    @BeforeEach
    void tables() {
        reset();
        TransactFixtures.createAndSeed(dynamoDb());
    }

    @Test
    void aTransactionWhoseLastConditionFailsLeavesBothTablesExactlyAsTheyWere() {
        TransactFixtures.State before = TransactFixtures.State.read(dynamoDb(), streams());

        TransactionCanceledException e = cancelled(TransactFixtures.everyKindOfWriteThen(
                ledger.conditionCheck("acct-a", "e1", "attribute_not_exists(pk)", true)));

        assertThat(TransactFixtures.State.read(dynamoDb(), streams())).isEqualTo(before);
        List<CancellationReason> reasons = e.cancellationReasons();
        assertThat(reasons).hasSize(TransactFixtures.EVERY_KIND_OF_WRITE + 1);
        assertThat(reasons.subList(0, TransactFixtures.EVERY_KIND_OF_WRITE))
                .allSatisfy(TransactWriteContract::assertNone);
        CancellationReason failed = reasons.get(TransactFixtures.EVERY_KIND_OF_WRITE);
        assertThat(failed.code()).isEqualTo("ConditionalCheckFailed");
        assertThat(failed.message()).isEqualTo(CONDITION_FAILED_MESSAGE);
        assertThat(failed.item()).isEqualTo(TransactFixtures.LEDGER_A_E1);
        assertThat(e.awsErrorDetails().errorMessage())
                .isEqualTo("Transaction cancelled, please refer cancellation reasons for specific reasons ["
                        + "None, ".repeat(TransactFixtures.EVERY_KIND_OF_WRITE) + "ConditionalCheckFailed]");
    }

    @Test
    void everyFailedConditionIsReportedAtItsIndexWithTheOldItemOnlyWhenAskedAndPresent() {
        TransactFixtures.State before = TransactFixtures.State.read(dynamoDb(), streams());

        TransactionCanceledException e = cancelled(List.of(
                orders.put("o-new", "placed", 5, "attribute_not_exists(pk)"),
                orders.conditionCheck("o1", "attribute_not_exists(pk)", true),
                orders.updateStatus("o2", "shipped"),
                orders.conditionCheck("o-missing", "attribute_exists(pk)", true),
                ledger.put("acct-z", "e1", "fee"),
                ledger.conditionCheck("acct-b", "e1", "attribute_not_exists(pk)", false)));

        assertThat(TransactFixtures.State.read(dynamoDb(), streams())).isEqualTo(before);
        List<CancellationReason> reasons = e.cancellationReasons();
        assertThat(reasons)
                .extracting(CancellationReason::code)
                .containsExactly(
                        "None",
                        "ConditionalCheckFailed",
                        "None",
                        "ConditionalCheckFailed",
                        "None",
                        "ConditionalCheckFailed");
        assertThat(reasons.get(1).item()).isEqualTo(TransactFixtures.ORDER_O1);
        assertThat(reasons.get(3).hasItem()).as("ALL_OLD on a missing item").isFalse();
        assertThat(reasons.get(5).hasItem()).as("no ALL_OLD asked").isFalse();
        assertThat(List.of(reasons.get(1), reasons.get(3), reasons.get(5)))
                .extracting(CancellationReason::message)
                .containsOnly(CONDITION_FAILED_MESSAGE);
    }

    @Test
    void aSuccessfulTransactionAppliesEveryWrite() {
        TransactFixtures.State before = TransactFixtures.State.read(dynamoDb(), streams());

        dynamoDb()
                .transactWriteItems(b -> b.transactItems(TransactFixtures.everyKindOfWriteThen(
                        ledger.conditionCheck("acct-a", "e1", "attribute_exists(pk)", true))));

        TransactFixtures.State after = TransactFixtures.State.read(dynamoDb(), streams());
        assertThat(after.orders().items()).containsExactlyElementsOf(TransactFixtures.ORDERS_AFTER_EVERY_KIND_OF_WRITE);
        assertThat(after.ledger().items()).containsExactlyElementsOf(TransactFixtures.LEDGER_AFTER_EVERY_KIND_OF_WRITE);
        assertThat(after.orders().describedItemCount())
                .isEqualTo(before.orders().describedItemCount());
        assertThat(after.ledger().describedItemCount())
                .isEqualTo(before.ledger().describedItemCount() + 2);
        assertThat(after.orders().indexQueries().get("shipped"))
                .containsExactly(TransactFixtures.order("o1", "shipped", 17));
        assertThat(after.orders().indexQueries().get("placed"))
                .extracting(item -> item.get("pk").s())
                .containsExactly("o-new", "o3");
        assertThat(after.ledger().indexQueries().get("fee"))
                .extracting(item -> item.get("pk").s() + "/" + item.get("sk").s())
                .containsExactly("acct-a/e9", "acct-new/e1", "acct-new2/e1");
        assertThat(after.orders().streamRecords())
                .hasSize(before.orders().streamRecords().size() + 3);
        // moto emits two records for an UpdateItem that creates its item (a known limit of the emulator)
        assertThat(after.ledger().streamRecords().size()
                        - before.ledger().streamRecords().size())
                .isBetween(4, 5);
    }

    @Test
    void anItemCreatedByAnUpdateIsGoneWhenTheTransactionIsCancelled() {
        TransactFixtures.State before = TransactFixtures.State.read(dynamoDb(), streams());

        TransactionCanceledException e = cancelled(List.of(
                orders.updateStatus("o-created", "placed"),
                ledger.updateKind("acct-created", "e1", "fee"),
                orders.conditionStatusIs("o1", "shipped")));

        assertThat(e.cancellationReasons())
                .extracting(CancellationReason::code)
                .containsExactly("None", "None", "ConditionalCheckFailed");
        assertThat(dynamoDb()
                        .getItem(b -> b.tableName(TransactFixtures.ORDERS)
                                .key(Map.of("pk", AttributeValue.fromS("o-created")))
                                .consistentRead(true))
                        .hasItem())
                .isFalse();
        assertThat(TransactFixtures.State.read(dynamoDb(), streams())).isEqualTo(before);
    }

    @Test
    void twoOperationsOnOneItemAreRefusedAndNothingIsApplied() {
        TransactFixtures.State before = TransactFixtures.State.read(dynamoDb(), streams());

        DynamoDbException e = catchThrowableOfType(
                DynamoDbException.class,
                () -> dynamoDb()
                        .transactWriteItems(b -> b.transactItems(
                                orders.put("o-new", "placed", 5, null),
                                ledger.put("acct-a", "e7", "fee"),
                                orders.updateStatus("o-new", "shipped"))));

        assertThat(e).isNotInstanceOf(TransactionCanceledException.class);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
        assertThat(e.awsErrorDetails().errorMessage())
                .isEqualTo("Transaction request cannot include multiple operations on one item");
        assertThat(TransactFixtures.State.read(dynamoDb(), streams())).isEqualTo(before);
    }

    @Test
    void aConditionCheckThatPassesChangesNothing() {
        TransactFixtures.State before = TransactFixtures.State.read(dynamoDb(), streams());

        dynamoDb()
                .transactWriteItems(b -> b.transactItems(
                        orders.conditionCheck("o1", "attribute_exists(pk)", true),
                        ledger.conditionCheck("acct-a", "e1", "attribute_exists(pk)", true)));

        assertThat(TransactFixtures.State.read(dynamoDb(), streams())).isEqualTo(before);
    }

    TransactionCanceledException cancelled(List<TransactWriteItem> items) {
        return catchThrowableOfType(
                TransactionCanceledException.class, () -> dynamoDb().transactWriteItems(b -> b.transactItems(items)));
    }

    private static void assertNone(CancellationReason reason) {
        assertThat(reason.code()).isEqualTo("None");
        assertThat(reason.message()).isNull();
        assertThat(reason.hasItem()).isFalse();
    }

    static ReturnValuesOnConditionCheckFailure allOld(boolean allOld) {
        return allOld ? ReturnValuesOnConditionCheckFailure.ALL_OLD : ReturnValuesOnConditionCheckFailure.NONE;
    }
}
