package dev.redrive.aws.claims;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * A DynamoDB client for the claim store contract that can make the next cancelled transaction report a concurrent
 * transaction ({@code TransactionConflict}) on its claim item (index 0) or on its effect items, the way DynamoDB does
 * when another transaction holds one of them: local AWS serializes requests, so a real conflict cannot be provoked.
 * The rest of the cancellation (the stored claim returned with {@code ALL_OLD}, the effects' own condition failures)
 * stays what the real transaction said.
 */
final class ConflictInjectingDynamoDb implements DynamoDbClient {

    /** Which reasons the next cancellation reports as a conflict. */
    enum Conflict {
        CLAIM,
        EFFECT
    }

    private final DynamoDbClient real;
    private final AtomicReference<Conflict> next = new AtomicReference<>();

    ConflictInjectingDynamoDb(DynamoDbClient real) {
        this.real = real;
    }

    void conflictOnNextTransaction(Conflict where) {
        next.set(where);
    }

    @Override
    public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
        Conflict where = next.getAndSet(null);
        try {
            return real.transactWriteItems(request);
        } catch (TransactionCanceledException e) {
            if (where == null) {
                throw e;
            }
            List<CancellationReason> reasons = new ArrayList<>(e.cancellationReasons());
            CancellationReason conflict = CancellationReason.builder()
                    .code("TransactionConflict")
                    .message("Transaction is ongoing for the item")
                    .build();
            for (int i = 0; i < reasons.size(); i++) {
                if ((where == Conflict.CLAIM) == (i == 0)) {
                    reasons.set(i, conflict);
                }
            }
            throw TransactionCanceledException.builder()
                    .message("Transaction cancelled, please refer cancellation reasons for specific reasons "
                            + reasons.stream().map(CancellationReason::code).toList())
                    .cancellationReasons(reasons)
                    .awsErrorDetails(e.awsErrorDetails())
                    .statusCode(e.statusCode())
                    .build();
        }
    }

    @Override
    public PutItemResponse putItem(PutItemRequest request) {
        return real.putItem(request);
    }

    @Override
    public GetItemResponse getItem(GetItemRequest request) {
        return real.getItem(request);
    }

    @Override
    public UpdateItemResponse updateItem(UpdateItemRequest request) {
        return real.updateItem(request);
    }

    @Override
    public String serviceName() {
        return real.serviceName();
    }

    @Override
    public void close() {
        // the real client is shared by the test JVM
    }
}
