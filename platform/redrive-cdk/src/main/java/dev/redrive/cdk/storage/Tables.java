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
 * a table replaced ({@code RETAIN_ON_UPDATE_OR_DELETE}: a create that rolls back deletes the still empty table). Their
 * names are left to CloudFormation: a table kept after {@code cdk destroy} never blocks the next deploy, and the
 * functions, the CLI and the outputs get the names from the stack.
 *
 * @param claims     idempotency claims: {@code pk}, TTL on {@code expiresAt}, point-in-time recovery
 * @param quarantine the dead-letter ledger: {@code pk}+{@code sk}, GSIs {@code byState} and {@code byQueue}
 * @param control    sweeper leases and maintenance windows: {@code pk}+{@code sk}
 */
public record Tables(Table claims, Table quarantine, Table control) {

    /** The quarantine GSI by workflow state, newest arrivals last. */
    public static final String BY_STATE_INDEX = "byState";
    /** The quarantine GSI by source queue. */
    public static final String BY_QUEUE_INDEX = "byQueue";

    /** Creates the tables directly in {@code scope} (so their logical ids stay short: {@code ClaimsTable...}). */
    public static Tables create(Construct scope, IKey key) {
        Table claims = table(scope, "ClaimsTable", key, false)
                .timeToLiveAttribute("expiresAt")
                .build();
        Table quarantine = table(scope, "QuarantineTable", key, true).build();
        quarantine.addGlobalSecondaryIndex(byArrival(BY_STATE_INDEX, "state"));
        quarantine.addGlobalSecondaryIndex(byArrival(BY_QUEUE_INDEX, "sourceQueue"));
        Table control = table(scope, "ControlTable", key, true).build();
        return new Tables(claims, quarantine, control);
    }

    /**
     * A table by the platform's rules, for a consumer's own data: on demand, encrypted with {@code key}, point-in-time
     * recovery, retained on delete or replacement; partition key {@code pk} (a string), and sort key {@code sk} when
     * {@code sorted}. Add a TTL, a stream or indexes on the builder.
     */
    public static Table.Builder table(Construct scope, String id, IKey key, boolean sorted) {
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
