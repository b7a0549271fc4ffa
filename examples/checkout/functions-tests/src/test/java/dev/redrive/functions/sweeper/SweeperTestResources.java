package dev.redrive.functions.sweeper;

import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.quarkus.RedriveConfig;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import java.util.Map;

/** What the sweeper's {@code @QuarkusTest}s run on: the test profile's resources, fresh, and one sweep of the email DLQ. */
final class SweeperTestResources {

    private SweeperTestResources() {}

    /**
     * Resets local AWS and creates the test profile's tables, the archive bucket, the (versioned) email outbox and the
     * email consumer's queue with its DLQ (3 receives, 30 s visibility).
     */
    static QueuePair fresh(LocalAws aws, CheckoutConfig config, RedriveConfig redrive) {
        aws.reset();
        LocalResources.createTable(aws.dynamoDb(), redrive.claims().table());
        LocalResources.createQuarantineTable(aws.dynamoDb(), config.sweeper().quarantineTable());
        LocalResources.createKeyValueTable(aws.dynamoDb(), config.sweeper().controlTable());
        aws.s3().createBucket(b -> b.bucket(config.sweeper().archiveBucket()));
        LocalResources.createVersionedBucket(aws, config.checkout().emailOutboxBucket());
        return LocalResources.createQueuePair(aws, "order-placed-email", 3, 30);
    }

    /** Runs the sweeper as its schedule does; returns its summary of the email DLQ. */
    static Map<String, Object> sweepEmailDlq(SweeperHandler sweeper) {
        Map<String, Object> result = sweeper.handleRequest(Map.of("source", "redrive.schedule"), null);
        @SuppressWarnings("unchecked")
        Map<String, Object> route = (Map<String, Object>) result.get("order-placed-email-dlq");
        return route;
    }
}
