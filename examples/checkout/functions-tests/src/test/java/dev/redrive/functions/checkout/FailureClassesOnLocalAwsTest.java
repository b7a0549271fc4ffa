package dev.redrive.functions.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlacedReader;
import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.testing.ManualClock;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Each failure class with a realistic cause, on local AWS (claims on DynamoDB, the email outbox on S3 or on a
 * misbehaving endpoint), ending in the right place.
 */
@LocalAwsTest
class FailureClassesOnLocalAwsTest {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    static final Duration REMAINING = Duration.ofSeconds(30);

    final LocalAws aws = LocalAws.shared();
    final ManualClock clock = new ManualClock(T0);
    final OrderPlacedReader reader = new OrderPlacedReader(new ObjectMapper(), new EventSchemas());
    final FullJitterBackoff backoff = new FullJitterBackoff(Duration.ofSeconds(2), 2, Duration.ofMinutes(15));
    String claimsTable;
    DynamoDbClaimStore claims;

    @BeforeEach
    void tables() {
        claimsTable = "claims-" + UUID.randomUUID().toString().substring(0, 8);
        LocalResources.createTable(aws.dynamoDb(), claimsTable);
        claims = new DynamoDbClaimStore(aws.dynamoDb(), claimsTable);
    }

    MessageOutcome deliver(S3Client s3, String body, int receiveCount) {
        ConfirmationEmailConsumer consumer =
                new ConfirmationEmailConsumer(reader, new S3EmailOutbox(s3, "outbox", new ObjectMapper()));
        MessageProcessor processor = new MessageProcessor(
                claims, LeasePolicy.DEFAULT, backoff, new Mulberry32(5), clock, ProcessingListener.NONE);
        return processor.process(
                consumer,
                new IncomingMessage(
                        UUID.randomUUID().toString(),
                        "rh",
                        body,
                        Map.of(),
                        receiveCount,
                        "arn:aws:sqs:us-east-1:000000000000:orders",
                        null),
                () -> REMAINING);
    }

    @Test
    void aTimeoutOfTheMailProviderIsTransientAndRetriedWithBackoff() throws Exception {
        try (BlackHole hole = new BlackHole()) {
            S3Client s3 = s3(hole.endpoint(), Duration.ofMillis(400));
            MessageOutcome outcome = deliver(s3, OrderEvents.v2("evt-timeout", "o-1", 100, "EUR"), 2);

            assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.RetryLater.class, r -> {
                assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
                assertThat(r.classification().dependency()).isEqualTo(ConfirmationEmailConsumer.DEPENDENCY);
                assertThat(r.classification().errorType()).contains("Timeout");
                assertThat(r.delaySeconds()).isBetween(0, 4);
            });
            ClaimRecord claim = claims.find(key("evt-timeout"), clock.instant()).orElseThrow();
            assertThat(claim.status()).isEqualTo(ClaimStatus.FAILED);
            assertThat(claim.lastFailure().attempt()).isEqualTo(2);
            assertThat(claim.lastFailure().classification().dependency()).isEqualTo("email-provider");
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aMailProviderThatHangsIsCutOffAtTheEffectsDeadline() throws Exception {
        try (BlackHole hole = new BlackHole()) {
            // A client with no call timeouts of its own (and a socket timeout longer than the test): only the
            // effect's deadline (the lease end minus skew and margin: 3 s from now) can end the call.
            S3Client s3 = S3Client.builder()
                    .endpointOverride(hole.endpoint())
                    .region(aws.region())
                    .credentialsProvider(aws.credentials())
                    .forcePathStyle(true)
                    .httpClient(UrlConnectionHttpClient.builder()
                            .socketTimeout(Duration.ofMinutes(5))
                            .build())
                    .build();
            ConfirmationEmailConsumer consumer =
                    new ConfirmationEmailConsumer(reader, new S3EmailOutbox(s3, "outbox", new ObjectMapper()));
            MessageProcessor processor = new MessageProcessor(
                    claims, LeasePolicy.DEFAULT, backoff, new Mulberry32(5), clock, ProcessingListener.NONE);

            MessageOutcome outcome = processor.process(
                    consumer,
                    new IncomingMessage(
                            "m-hang", "rh", OrderEvents.v2("evt-hang", "o-6", 100, "EUR"), Map.of(), 1, "orders", null),
                    () -> Duration.ofSeconds(4));

            assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.RetryLater.class, r -> {
                assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
                assertThat(r.classification().errorType()).isEqualTo("ApiCallTimeoutException");
            });
        }
    }

    @Test
    void throttlingByTheMailProviderIsTransient() throws Exception {
        HttpServer slowDown = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        slowDown.createContext("/", exchange -> {
            byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
                            + "<Message>Please reduce your request rate.</Message></Error>")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/xml");
            exchange.sendResponseHeaders(503, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        slowDown.start();
        try {
            S3Client s3 =
                    s3(URI.create("http://127.0.0.1:" + slowDown.getAddress().getPort()), Duration.ofSeconds(5));
            MessageOutcome outcome = deliver(s3, OrderEvents.v2("evt-throttled", "o-2", 100, "EUR"), 1);

            assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.RetryLater.class, r -> {
                assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
                assertThat(r.classification().errorType()).isEqualTo("SlowDown");
                assertThat(r.classification().reason()).contains("HTTP 503");
            });
        } finally {
            slowDown.stop(0);
        }
    }

    @Test
    void aConcurrentConditionalWriteOfTheSameEmailIsTransient() throws Exception {
        HttpServer racing = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        racing.createContext("/", exchange -> {
            byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>ConditionalRequestConflict</Code>"
                            + "<Message>A conflicting conditional operation is currently in progress against this "
                            + "resource. Please try again.</Message></Error>")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/xml");
            exchange.sendResponseHeaders(409, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        racing.start();
        try {
            S3Client s3 =
                    s3(URI.create("http://127.0.0.1:" + racing.getAddress().getPort()), Duration.ofSeconds(5));
            MessageOutcome outcome = deliver(s3, OrderEvents.v2("evt-racing", "o-5", 100, "EUR"), 1);

            assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.RetryLater.class, r -> {
                assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
                assertThat(r.classification().errorType()).isEqualTo("ConditionalRequestConflict");
            });
        } finally {
            racing.stop(0);
        }
    }

    @Test
    void anAccessDeniedConfigurationErrorIsPermanentAndDeadLettered() throws Exception {
        HttpServer denied = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        denied.createContext("/", exchange -> {
            byte[] body = "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(403, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        denied.start();
        try {
            S3Client s3 =
                    s3(URI.create("http://127.0.0.1:" + denied.getAddress().getPort()), Duration.ofSeconds(5));
            MessageOutcome outcome = deliver(s3, OrderEvents.v2("evt-denied", "o-3", 100, "EUR"), 1);

            assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
                assertThat(d.failure().failureClass()).isEqualTo(FailureClass.PERMANENT);
                assertThat(d.failure().classification().errorType()).isEqualTo("AccessDenied");
            });
        } finally {
            denied.stop(0);
        }
    }

    @Test
    void aWorkerThatCrashedMidEffectLeavesEvidenceAndTheMessageIsAppliedAfterItsLeaseExpires() {
        aws.s3().createBucket(b -> b.bucket("outbox-" + claimsTable));
        String body = OrderEvents.v2("evt-crash", "o-4", 100, "EUR");
        ConfirmationEmailConsumer consumer = new ConfirmationEmailConsumer(
                reader, new S3EmailOutbox(aws.s3(), "outbox-" + claimsTable, new ObjectMapper()));
        // The first worker claimed, started the effect and died: no completion, no failure recorded.
        String hash =
                PayloadFingerprint.of(consumer.parse(new IncomingMessage("m-1", "rh", body, Map.of(), 1, "q", null))
                        .canonicalPayload());
        claims.claim(
                LeasePolicy.DEFAULT.request(key("evt-crash"), hash, new MessageOrigin("orders", "m-1"), T0, REMAINING),
                T0);
        MessageProcessor processor = new MessageProcessor(
                claims, LeasePolicy.DEFAULT, backoff, new Mulberry32(5), clock, ProcessingListener.NONE);
        IncomingMessage redelivery = new IncomingMessage("m-1", "rh2", body, Map.of(), 2, "orders", null);

        clock.advance(Duration.ofSeconds(10));
        MessageOutcome whileLeased = processor.process(consumer, redelivery, () -> REMAINING);
        clock.advance(REMAINING);
        ClaimRecord evidence = claims.find(key("evt-crash"), clock.instant()).orElseThrow();
        MessageOutcome afterLease = processor.process(consumer, redelivery, () -> REMAINING);

        assertThat(whileLeased).isInstanceOf(MessageOutcome.Deferred.class);
        assertThat(evidence.vanishedMidFlight(clock.instant()))
                .as("in progress, lease over, no failure")
                .isTrue();
        assertThat(evidence.failureCount()).isZero();
        assertThat(afterLease)
                .isInstanceOfSatisfying(
                        MessageOutcome.Applied.class,
                        a -> assertThat(a.fencingToken()).isEqualTo(2));
        assertThat(aws.s3()
                        .listObjectsV2(b -> b.bucket("outbox-" + claimsTable))
                        .contents())
                .hasSize(1);
    }

    private static IdempotencyKey key(String eventId) {
        return new IdempotencyKey(ConfirmationEmailConsumer.NAME, eventId);
    }

    private S3Client s3(URI endpoint, Duration attemptTimeout) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(aws.region())
                .credentialsProvider(aws.credentials())
                .forcePathStyle(true)
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(RetryMode.STANDARD)
                        .apiCallAttemptTimeout(attemptTimeout)
                        .apiCallTimeout(attemptTimeout.multipliedBy(4))
                        .build())
                .build();
    }

    /** Accepts connections and never answers: a dependency that hangs. */
    static final class BlackHole implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> held = new ArrayList<>();
        private final Thread acceptor;

        BlackHole() throws IOException {
            acceptor = new Thread(
                    () -> {
                        while (!server.isClosed()) {
                            try {
                                Socket s = server.accept();
                                synchronized (held) {
                                    held.add(s);
                                }
                            } catch (IOException closed) {
                                return;
                            }
                        }
                    },
                    "black-hole");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + server.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            server.close();
            synchronized (held) {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }
}
