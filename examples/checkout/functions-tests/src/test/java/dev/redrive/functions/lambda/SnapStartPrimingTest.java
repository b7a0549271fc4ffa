package dev.redrive.functions.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.quarkus.RedriveConfig;
import dev.redrive.quarkus.SnapStartPriming;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * SnapStart's priming hook runs the function's code on made-up input and nothing leaves the process: no request
 * reaches AWS (no connection is even opened), no claim, email, message or metric is written. The test runs it as the
 * confirmation-email function (the test profile's handler) on local AWS, and watches every connection the JVM opens
 * through its proxy selector, which the functions' HTTP client consults for each one (shown by a real call first).
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class SnapStartPrimingTest {

    @Inject
    SnapStartPriming priming;

    @Inject
    DynamoDbClaimStore claims;

    @Inject
    CheckoutConfig config;

    @Inject
    RedriveConfig redrive;

    @Inject
    DynamoDbClient dynamoDb;

    LocalAws aws = LocalAws.shared();
    QueuePair queue;

    @BeforeEach
    void freshResources() {
        aws.reset();
        LocalResources.createTable(aws.dynamoDb(), claims.table());
        LocalResources.createVersionedBucket(aws, config.checkout().emailOutboxBucket());
        LocalResources.createKeyValueTable(aws.dynamoDb(), redrive.breakers().table());
        queue = LocalResources.createQueuePair(aws, "order-placed-email", 3, 30);
    }

    @Test
    void primingRunsEveryStepWithoutOpeningAConnectionOrWritingAnything() {
        ConnectionWatch watch = ConnectionWatch.install();
        try {
            dynamoDb.listTables();
            assertThat(watch.opened())
                    .as("control: a real call through the function's client is seen")
                    .isNotEmpty();
            watch.clear();

            List<String> failed = priming.prime().failed();

            assertThat(failed).as("priming steps that failed").isEmpty();
            assertThat(watch.opened()).as("connections opened by priming").isEmpty();
        } finally {
            watch.uninstall();
        }
        assertThat(aws.dynamoDb().scan(b -> b.tableName(claims.table())).count())
                .as("claims")
                .isZero();
        assertThat(aws.dynamoDb()
                        .scan(b -> b.tableName(redrive.breakers().table()))
                        .count())
                .as("breaker states")
                .isZero();
        assertThat(aws.s3()
                        .listObjectVersions(b -> b.bucket(config.checkout().emailOutboxBucket()))
                        .versions())
                .as("emails")
                .isEmpty();
        assertThat(aws.sqs().receiveMessage(b -> b.queueUrl(queue.dlqUrl())).messages())
                .as("dead letters")
                .isEmpty();
    }

    @Test
    void everyFunctionsEventIsReadByTheRuntimesMapper() {
        List<String> failed = new ArrayList<>();
        for (String consumer : List.of(CheckoutNames.CONFIRMATION_EMAIL, CheckoutNames.REVENUE_ANALYTICS)) {
            SnapStartPriming.Outcome outcome = priming.prime(consumer);
            assertThat(outcome.ran())
                    .as("a consumer's SQS event and its made-up order, by the extension")
                    .startsWith("event", "consumer");
            outcome.failed().forEach(step -> failed.add(consumer + ": " + step));
        }
        for (String handler : List.of(
                Handlers.DLQ_SWEEPER,
                CheckoutNames.CHECKOUT,
                CheckoutNames.OUTBOX_RELAY,
                CheckoutNames.OUTBOX_SWEEPER,
                CheckoutNames.CHECKOUT_RECONCILIATION)) {
            SnapStartPriming.Outcome outcome = priming.prime(handler);
            assertThat(outcome.ran())
                    .as("the checkout's own event of " + handler)
                    .startsWith(CheckoutPriming.class.getSimpleName());
            outcome.failed().forEach(step -> failed.add(handler + ": " + step));
        }
        assertThat(failed).isEmpty();
    }

    /** Records every URI the JVM's proxy selector is asked about: each connection an HTTP client opens. */
    static final class ConnectionWatch extends ProxySelector {
        private final ProxySelector previous;
        private final List<URI> opened = new CopyOnWriteArrayList<>();

        private ConnectionWatch(ProxySelector previous) {
            this.previous = previous;
        }

        static ConnectionWatch install() {
            ConnectionWatch watch = new ConnectionWatch(ProxySelector.getDefault());
            ProxySelector.setDefault(watch);
            return watch;
        }

        void uninstall() {
            ProxySelector.setDefault(previous);
        }

        List<URI> opened() {
            return List.copyOf(opened);
        }

        void clear() {
            opened.clear();
        }

        @Override
        public List<Proxy> select(URI uri) {
            opened.add(uri);
            return previous == null ? List.of(Proxy.NO_PROXY) : previous.select(uri);
        }

        @Override
        public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
            if (previous != null) {
                previous.connectFailed(uri, sa, ioe);
            }
        }
    }
}
