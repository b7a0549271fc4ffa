package dev.redrive.functions.it;

import dev.redrive.checkout.CheckoutContracts;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Local AWS for the integration tests of the packaged artifact: the shared local AWS of the test JVM (ElasticMQ and
 * moto on free loopback ports) with the tables, buckets and queue pair the launched functions use, created before
 * the artifact starts (the sweeper resolves its routes at start). The launched process gets the endpoints and names
 * as configuration, as it would get them from Lambda's environment.
 */
public final class ItResources implements QuarkusTestResourceLifecycleManager {

    static final String CLAIMS = "it-claims";
    static final String OUTBOX = "it-email-outbox";
    static final String QUARANTINE = "it-quarantine";
    static final String CONTROL = "it-control";
    static final String ARCHIVE = "it-archive";
    static final String ORDERS = "it-orders";
    static final String ORDERS_DLQ = ORDERS + "-dlq";

    @Override
    public Map<String, String> start() {
        LocalAws aws = LocalAws.shared();
        aws.reset();
        LocalResources.createTable(aws.dynamoDb(), CLAIMS);
        LocalResources.createQuarantineTable(aws.dynamoDb(), QUARANTINE);
        LocalResources.createKeyValueTable(aws.dynamoDb(), CONTROL);
        LocalResources.createVersionedBucket(aws, OUTBOX);
        aws.s3().createBucket(b -> b.bucket(ARCHIVE));
        LocalResources.QueuePair orders = LocalResources.createQueuePair(aws, ORDERS, 10, 180);
        Map<String, String> config = new LinkedHashMap<>(aws.quarkusConfig());
        config.put("redrive.claims.table", CLAIMS);
        config.put("redrive.checkout.email-outbox-bucket", OUTBOX);
        config.put("redrive.dead-letters.queue-url", orders.dlqUrl());
        config.put("redrive.sweeper.quarantine-table", QUARANTINE);
        config.put("redrive.sweeper.control-table", CONTROL);
        config.put("redrive.breakers.table", CONTROL);
        config.put("redrive.sweeper.archive-bucket", ARCHIVE);
        config.put(
                "redrive.routes",
                new RoutesDocument(List.of(CheckoutContracts.route(
                                ConfirmationEmailConsumer.NAME,
                                orders.url(),
                                orders.dlqUrl(),
                                ConfirmationEmailConsumer.DEPENDENCY)))
                        .toJson());
        return config;
    }

    @Override
    public void stop() {
        // the shared local AWS stops with the test JVM
    }
}
