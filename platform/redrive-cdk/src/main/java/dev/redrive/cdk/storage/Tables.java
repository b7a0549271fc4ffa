package dev.redrive.cdk.storage;

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
 * a table replaced ({@code RETAIN_ON_UPDATE_OR_DELETE}: a create that rolls back deletes the still empty table), and
 * protected from deletion by DynamoDB itself unless told otherwise. Their
 * names are left to CloudFormation: a table kept after {@code cdk destroy} never blocks the next deploy, and the
 * functions, the CLI and the outputs get the names from the stack.
 *
 * @param claims     idempotency claims: {@code pk}, TTL on {@code expiresAt}, point-in-time recovery
 * @param quarantine the dead-letter ledger: {@code pk}+{@code sk}, GSIs {@code byState} and {@code byQueue}, TTL on
 *                   {@code expiresAt} (tombstones only)
 * @param control    sweeper leases and maintenance windows: {@code pk}+{@code sk}
 */
public record Tables(Table claims, Table quarantine, Table control) {

    /** The quarantine GSI by workflow state, newest arrivals last. */
    public static final String BY_STATE_INDEX = "byState";
    /** The quarantine GSI by source queue. */
    public static final String BY_QUEUE_INDEX = "byQueue";

    /**
     * The ledger's expiry attribute, epoch seconds: a tombstone (a record archived to S3) carries it, and the table's TTL
     * deletes the tombstone after it; an active record never has one.
     */
    public static final String TOMBSTONE_EXPIRY_ATTRIBUTE = "expiresAt";

    /** The tables, each protected from deletion ({@link #create(Construct, IKey, boolean)}). */
    public static Tables create(Construct scope, IKey key) {
        return create(scope, key, true);
    }

    /**
     * Creates the tables directly in {@code scope} (so their logical ids stay short: {@code ClaimsTable...}), with
     * DynamoDB's deletion protection when {@code deletionProtection} (no one, console, CLI or a stack, can delete a
     * protected table until the setting is turned off).
     */
    public static Tables create(Construct scope, IKey key, boolean deletionProtection) {
        Table claims = table(scope, "ClaimsTable", key, false, deletionProtection)
                .timeToLiveAttribute("expiresAt")
                .build();
        Table quarantine = table(scope, "QuarantineTable", key, true, deletionProtection)
                .timeToLiveAttribute(TOMBSTONE_EXPIRY_ATTRIBUTE)
                .build();
        quarantine.addGlobalSecondaryIndex(byArrival(BY_STATE_INDEX, "state"));
        quarantine.addGlobalSecondaryIndex(byArrival(BY_QUEUE_INDEX, "sourceQueue"));
        Table control =
                table(scope, "ControlTable", key, true, deletionProtection).build();
        return new Tables(claims, quarantine, control);
    }

    /**
     * A table by the platform's rules, for a consumer's own data: on demand, encrypted with {@code key}, point-in-time
     * recovery, retained on delete or replacement; partition key {@code pk} (a string), and sort key {@code sk} when
     * {@code sorted}; deletion protection on. Add a TTL, a stream or indexes on the builder.
     */
    public static Table.Builder table(Construct scope, String id, IKey key, boolean sorted) {
        return table(scope, id, key, sorted, true);
    }

    /** As {@link #table(Construct, String, IKey, boolean)}, with deletion protection only when {@code deletionProtection}. */
    public static Table.Builder table(
            Construct scope, String id, IKey key, boolean sorted, boolean deletionProtection) {
        Table.Builder builder = Table.Builder.create(scope, id)
                .deletionProtection(deletionProtection)
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
