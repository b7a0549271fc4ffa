package dev.redrive.infra.storage;

import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.amazon.awscdk.services.kms.IKey;
import software.constructs.Construct;

/**
 * The DynamoDB tables: all on demand, encrypted with the customer-managed key, retained when the stack is deleted or
 * a table replaced ({@code RETAIN_ON_UPDATE_OR_DELETE}: a create that rolls back deletes the still empty table). Their
 * names are left to CloudFormation: a table kept after {@code cdk destroy} never blocks the next deploy, and the
 * functions, the CLI and the outputs get the names from the stack.
 *
 * @param claims     idempotency claims: {@code pk}, TTL on {@code expiresAt}, point-in-time recovery
 * @param revenue    the checkout example's revenue counters: {@code pk}
 * @param quarantine the dead-letter ledger: {@code pk}+{@code sk}, GSIs {@code byState} and {@code byQueue}
 * @param control    sweeper leases and maintenance windows: {@code pk}+{@code sk}
 */
public record Tables(Table claims, Table revenue, Table quarantine, Table control) {

    /** The quarantine GSI by workflow state, newest arrivals last. */
    public static final String BY_STATE_INDEX = "byState";
    /** The quarantine GSI by source queue. */
    public static final String BY_QUEUE_INDEX = "byQueue";

    /** The orders table's sparse GSI of outbox items not yet published. */
    public static final String UNPUBLISHED_INDEX = "byUnpublished";
    /** The orders table's sparse GSI of unfinished checkout attempts. */
    public static final String OPEN_ATTEMPT_INDEX = "byOpenAttempt";

    /**
     * The checkout's orders table, in {@code scope}, by the same rules as the others: {@code pk}+{@code sk}, its stream
     * of new images (the outbox relay), GSIs {@value #UNPUBLISHED_INDEX} ({@code unpublished}, {@code createdAt}) and
     * {@value #OPEN_ATTEMPT_INDEX} ({@code openAttempt}, {@code leaseUntil}).
     */
    public static Table orders(Construct scope, IKey key) {
        Table orders = table(scope, "OrdersTable", key, true).stream(
                        software.amazon.awscdk.services.dynamodb.StreamViewType.NEW_IMAGE)
                .build();
        orders.addGlobalSecondaryIndex(sparse(UNPUBLISHED_INDEX, "unpublished", "createdAt"));
        orders.addGlobalSecondaryIndex(sparse(OPEN_ATTEMPT_INDEX, "openAttempt", "leaseUntil"));
        return orders;
    }

    private static GlobalSecondaryIndexProps sparse(String name, String marker, String sortedBy) {
        return GlobalSecondaryIndexProps.builder()
                .indexName(name)
                .partitionKey(string(marker))
                .sortKey(Attribute.builder()
                        .name(sortedBy)
                        .type(AttributeType.NUMBER)
                        .build())
                .projectionType(ProjectionType.ALL)
                .build();
    }

    /** Creates the tables directly in {@code scope} (so their logical ids stay short: {@code ClaimsTable...}). */
    public static Tables create(Construct scope, IKey key) {
        Table claims = table(scope, "ClaimsTable", key, false)
                .timeToLiveAttribute("expiresAt")
                .build();
        Table revenue = table(scope, "RevenueTable", key, false).build();
        Table quarantine = table(scope, "QuarantineTable", key, true).build();
        quarantine.addGlobalSecondaryIndex(byArrival(BY_STATE_INDEX, "state"));
        quarantine.addGlobalSecondaryIndex(byArrival(BY_QUEUE_INDEX, "sourceQueue"));
        Table control = table(scope, "ControlTable", key, true).build();
        return new Tables(claims, revenue, quarantine, control);
    }

    private static Table.Builder table(Construct scope, String id, IKey key, boolean sorted) {
        Table.Builder builder = Table.Builder.create(scope, id)
                .partitionKey(string("pk"))
                .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .encryption(TableEncryption.CUSTOMER_MANAGED)
                .encryptionKey(key)
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true)
                        .build());
        if (sorted) {
            builder.sortKey(string("sk"));
        }
        return builder;
    }

    private static GlobalSecondaryIndexProps byArrival(String name, String partitionAttribute) {
        return GlobalSecondaryIndexProps.builder()
                .indexName(name)
                .partitionKey(string(partitionAttribute))
                .sortKey(Attribute.builder()
                        .name("arrivedAt")
                        .type(AttributeType.NUMBER)
                        .build())
                .projectionType(ProjectionType.ALL)
                .build();
    }

    private static Attribute string(String name) {
        return Attribute.builder().name(name).type(AttributeType.STRING).build();
    }
}
