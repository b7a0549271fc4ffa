package dev.redrive.infra.storage;

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
 * The DynamoDB tables: all on demand, encrypted with the customer-managed key, retained when the stack goes.
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

    /** Creates the tables directly in {@code scope} (so their logical ids stay short: {@code ClaimsTable...}). */
    public static Tables create(Construct scope, String prefix, IKey key) {
        Table claims = table(scope, "ClaimsTable", prefix + "-claims", key, false)
                .timeToLiveAttribute("expiresAt")
                .build();
        Table revenue =
                table(scope, "RevenueTable", prefix + "-revenue", key, false).build();
        Table quarantine = table(scope, "QuarantineTable", prefix + "-quarantine", key, true)
                .build();
        quarantine.addGlobalSecondaryIndex(byArrival(BY_STATE_INDEX, "state"));
        quarantine.addGlobalSecondaryIndex(byArrival(BY_QUEUE_INDEX, "sourceQueue"));
        Table control =
                table(scope, "ControlTable", prefix + "-control", key, true).build();
        return new Tables(claims, revenue, quarantine, control);
    }

    private static Table.Builder table(Construct scope, String id, String name, IKey key, boolean sorted) {
        Table.Builder builder = Table.Builder.create(scope, id)
                .tableName(name)
                .partitionKey(string("pk"))
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
