package dev.redrive.localrun.scenario;

import dev.redrive.aws.ledger.QuarantineItems;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.localrun.LocalSystem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Reads the state of the running system from local AWS: claims, queues, the ledger, the archive, the effects. */
public final class Observer {

    private final LocalSystem system;
    private final DynamoDbClient ddb;

    public Observer(LocalSystem system) {
        this.system = system;
        this.ddb = system.aws().dynamoDb();
    }

    public String claimsTable() {
        return system.environmentOf(LocalSystem.EMAIL).get("REDRIVE_CLAIMS_TABLE");
    }

    public String quarantineTable() {
        return system.environmentOf(LocalSystem.SWEEPER).get("REDRIVE_SWEEPER_QUARANTINE_TABLE");
    }

    public String controlTable() {
        return system.environmentOf(LocalSystem.SWEEPER).get("REDRIVE_SWEEPER_CONTROL_TABLE");
    }

    public String archiveBucket() {
        return system.environmentOf(LocalSystem.SWEEPER).get("REDRIVE_SWEEPER_ARCHIVE_BUCKET");
    }

    public String outboxBucket() {
        return system.environmentOf(LocalSystem.EMAIL).get("REDRIVE_CHECKOUT_EMAIL_OUTBOX_BUCKET");
    }

    public String revenueTable() {
        return system.environmentOf(LocalSystem.REVENUE).get("REDRIVE_CHECKOUT_REVENUE_TABLE");
    }

    /** Claims of {@code consumer} by status. */
    public Map<String, Integer> claims(String consumer) {
        Map<String, Integer> byStatus = new HashMap<>();
        for (var page : ddb.scanPaginator(b -> b.tableName(claimsTable())
                .filterExpression("begins_with(pk, :c)")
                .expressionAttributeValues(Map.of(":c", AttributeValue.fromS(consumer + "#")))
                .projectionExpression("#s")
                .expressionAttributeNames(Map.of("#s", "status")))) {
            page.items().forEach(i -> byStatus.merge(i.get("status").s(), 1, Integer::sum));
        }
        return byStatus;
    }

    public int completed(String consumer) {
        return claims(consumer).getOrDefault("COMPLETED", 0);
    }

    /** A claim as the checker reads it. */
    public record ClaimView(String status, long fencingToken, long leaseExpiresAtMillis) {}

    /** Every claim, by key (one scan of the table; the dead-letter notes it also holds have no status). */
    public Map<String, ClaimView> claimsByKey() {
        Map<String, ClaimView> all = new HashMap<>();
        for (var page : ddb.scanPaginator(b -> b.tableName(claimsTable()))) {
            for (var i : page.items()) {
                if (!i.containsKey("status")) {
                    continue;
                }
                all.put(
                        i.get("pk").s(),
                        new ClaimView(
                                i.get("status").s(),
                                i.containsKey("fencingToken")
                                        ? Long.parseLong(i.get("fencingToken").n())
                                        : -1,
                                i.containsKey("leaseExpiresAt")
                                        ? Long.parseLong(i.get("leaseExpiresAt").n())
                                        : -1));
            }
        }
        return all;
    }

    /** Messages of a queue that are received and not yet deleted (in flight). */
    public int inFlight(String queueUrl) {
        return Integer.parseInt(system.aws()
                .sqs()
                .getQueueAttributes(b -> b.queueUrl(queueUrl)
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }

    /** The status of one claim key, or "ABSENT". */
    public String claimStatus(String key) {
        Map<String, AttributeValue> item = ddb.getItem(b -> b.tableName(claimsTable())
                        .key(Map.of("pk", AttributeValue.fromS(key)))
                        .consistentRead(true))
                .item();
        return item == null || item.isEmpty() ? "ABSENT" : item.get("status").s();
    }

    /** Visible + in-flight messages of a queue. */
    public int depth(String queueUrl) {
        Map<QueueAttributeName, String> a = system.aws()
                .sqs()
                .getQueueAttributes(b -> b.queueUrl(queueUrl)
                        .attributeNames(
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                .attributes();
        return a.values().stream().mapToInt(Integer::parseInt).sum();
    }

    /** Every ledger record (the demo's ledgers are small). */
    public List<QuarantineRecord> ledger() {
        List<QuarantineRecord> all = new ArrayList<>();
        for (var page : ddb.scanPaginator(b -> b.tableName(quarantineTable()))) {
            page.items().stream().filter(QuarantineItems::isRecord).forEach(i -> all.add(QuarantineItems.fromItem(i)));
        }
        return all;
    }

    /** Email objects written per idempotency key (each version is one write of the effect). */
    public Map<String, Integer> emailWritesPerKey() {
        Map<String, Integer> writes = new HashMap<>();
        for (var page : system.aws().s3().listObjectVersionsPaginator(b -> b.bucket(outboxBucket()))) {
            for (ObjectVersion v : page.versions()) {
                writes.merge(v.key(), 1, Integer::sum);
            }
        }
        return writes;
    }

    /** The revenue counters summed over every day and currency: amount in minor units, and orders. */
    public long[] revenue() {
        long amount = 0;
        long orders = 0;
        for (var page : ddb.scanPaginator(b -> b.tableName(revenueTable()))) {
            for (var item : page.items()) {
                amount += Long.parseLong(item.get("amountMinor").n());
                orders += Long.parseLong(item.get("orders").n());
            }
        }
        return new long[] {amount, orders};
    }

    public List<String> archiveObjects() {
        List<String> keys = new ArrayList<>();
        for (var page : system.aws()
                .s3()
                .listObjectsV2Paginator(b -> b.bucket(archiveBucket()).prefix("archive/"))) {
            page.contents().forEach(o -> keys.add(o.key()));
        }
        return keys;
    }

    /** Counts of ledger records by state name. */
    public static Map<String, Integer> byState(List<QuarantineRecord> records) {
        Map<String, Integer> counts = new HashMap<>();
        records.forEach(r -> counts.merge(r.state().name(), 1, Integer::sum));
        return counts;
    }

    /** Counts of ledger records by failure class. */
    public static Map<String, Integer> byClass(List<QuarantineRecord> records) {
        Map<String, Integer> counts = new HashMap<>();
        records.forEach(r -> counts.merge(r.classification().failureClass().name(), 1, Integer::sum));
        return counts;
    }
}
