package dev.redrive.aws.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * One retry layer: an effect's client calls a struggling dependency once per attempt of the message, and retries only
 * a connection blip, once. Counted at a local server that answers the way a downed dependency does.
 */
class EffectClientsTest {

    private static final EffectClients.Settings FAST = new EffectClients.Settings(
            Duration.ofMillis(500), Duration.ofMillis(700), Duration.ofSeconds(3), Duration.ofMillis(10));

    private FakeDependency dependency;

    @AfterEach
    void stop() throws IOException {
        if (dependency != null) {
            dependency.close();
        }
    }

    @Test
    void aThrottlingDependencyIsCalledOncePerAttemptNotRetriedByTheSdk() throws IOException {
        dependency = new FakeDependency(FakeDependency.Mode.SLOW_DOWN);

        assertThatThrownBy(() -> put(EffectClients.configure(builder(), FAST).build()))
                .isInstanceOf(S3Exception.class)
                .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(503));
        assertThat(dependency.requests()).isEqualTo(1);
    }

    @Test
    void theSdksDefaultClientCallsTheSameDependencySeveralTimes() throws IOException {
        // Why the rule is needed: what the functions' clients did before (the incident's ~15 calls per message).
        dependency = new FakeDependency(FakeDependency.Mode.SLOW_DOWN);

        assertThatThrownBy(() -> put(
                        builder().httpClient(UrlConnectionHttpClient.create()).build()))
                .isInstanceOf(S3Exception.class);
        assertThat(dependency.requests()).isGreaterThan(1);
    }

    @Test
    void aConnectionClosedUnderTheCallIsRetriedExactlyOnce() throws IOException {
        dependency = new FakeDependency(FakeDependency.Mode.CLOSE);

        assertThatThrownBy(() -> put(EffectClients.configure(builder(), FAST).build()))
                .isInstanceOf(SdkClientException.class);
        assertThat(dependency.requests()).isEqualTo(EffectClients.MAX_ATTEMPTS);
    }

    @Test
    void aHangingDependencyTimesOutAtTheAttemptTimeoutOnceAndIsNotCalledAgain() throws IOException {
        dependency = new FakeDependency(FakeDependency.Mode.SILENT);
        S3Client effect = EffectClients.configure(builder(), FAST).build();

        long started = System.nanoTime();
        assertThatThrownBy(() -> put(effect))
                .isInstanceOfAny(
                        ApiCallAttemptTimeoutException.class, ApiCallTimeoutException.class, SdkClientException.class);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(dependency.requests()).isEqualTo(1);
        // The dependency never answers (it holds the connection until the test ends): only the client's attempt
        // timeout (700 ms) ended the call. Bounded well below the call timeout (3 s), which a retry would reach.
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(600)).isLessThan(FAST.callTimeout());
    }

    @Test
    void aCallToAHangingDependencyEndsAtTheEffectsDeadlineWhenThatComesFirst() throws IOException {
        dependency = new FakeDependency(FakeDependency.Mode.SILENT);
        EffectClients.Settings generous = new EffectClients.Settings(
                Duration.ofSeconds(2), Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofMillis(10));
        S3Client effect = EffectClients.configure(builder(), generous).build();
        EffectCallTimeouts calls = EffectCallTimeouts.within(
                Duration.ofMillis(400),
                "outbox",
                effect.serviceClientConfiguration().overrideConfiguration());

        long started = System.nanoTime();
        assertThatThrownBy(() -> effect.putObject(
                        b -> b.bucket("outbox").key("k").overrideConfiguration(calls.next("the email")),
                        RequestBody.fromString("{}")))
                .isInstanceOfAny(ApiCallAttemptTimeoutException.class, ApiCallTimeoutException.class);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(dependency.requests()).isEqualTo(1);
        // 400 ms left before the deadline, against client timeouts of 20 s: the deadline ended it.
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(Duration.ofSeconds(5));
        assertThatThrownBy(() -> calls.next("after the deadline"))
                .isInstanceOf(dev.redrive.core.consumer.EffectDeadlinePassed.class);
    }

    @Test
    void aClientFromHereCarriesTheRuleAndItsTimeouts() {
        ClientOverrideConfiguration c = EffectClients.overrideConfiguration(FAST);

        assertThat(c.retryStrategy().orElseThrow().maxAttempts()).isEqualTo(EffectClients.MAX_ATTEMPTS);
        assertThat(c.apiCallAttemptTimeout()).contains(FAST.attemptTimeout());
        assertThat(c.apiCallTimeout()).contains(FAST.callTimeout());
    }

    @Test
    void settingsRefuseASlowRetryOrACallShorterThanItsAttempt() {
        assertThatThrownBy(() -> new EffectClients.Settings(
                        Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("quick");
        assertThatThrownBy(() -> new EffectClients.Settings(
                        Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(4), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least the attempt");
    }

    @Test
    void connectionBlipsAreConnectionLevelOnly() {
        assertThat(EffectClients.connectionBlip(
                        SdkClientException.create("x", new java.net.ConnectException("refused"))))
                .isTrue();
        assertThat(EffectClients.connectionBlip(
                        SdkClientException.create("x", new SocketException("Connection reset"))))
                .isTrue();
        assertThat(EffectClients.connectionBlip(
                        SdkClientException.create("x", new java.net.SocketTimeoutException("Read timed out"))))
                .isFalse();
        assertThat(EffectClients.connectionBlip(
                        S3Exception.builder().statusCode(503).build()))
                .isFalse();
        assertThat(EffectClients.connectionBlip(new IllegalStateException("bug")))
                .isFalse();
    }

    @Test
    void anS3ClientLikeTheApplicationsKeepsItsRegionAndEndpoint() throws IOException {
        dependency = new FakeDependency(FakeDependency.Mode.SLOW_DOWN);
        S3Client application =
                builder().httpClient(UrlConnectionHttpClient.create()).build();

        S3Client effect = EffectClients.s3Like(application, true, FAST);

        assertThat(effect.serviceClientConfiguration().region()).isEqualTo(Region.US_EAST_1);
        assertThat(effect.serviceClientConfiguration().endpointOverride()).contains(dependency.endpoint());
        assertThat(effect.serviceClientConfiguration().overrideConfiguration().apiCallAttemptTimeout())
                .contains(FAST.attemptTimeout());
        assertThatThrownBy(() -> put(effect)).isInstanceOf(S3Exception.class);
        assertThat(dependency.requests()).isEqualTo(1);
    }

    private S3ClientBuilder builder() {
        return S3Client.builder()
                .endpointOverride(dependency.endpoint())
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")));
    }

    private static void put(S3Client s3) {
        s3.putObject(b -> b.bucket("outbox").key("k"), RequestBody.fromString("{}"));
    }

    /** A dependency on a local socket that answers 503 SlowDown, closes the connection, or never answers. */
    static final class FakeDependency implements AutoCloseable {
        enum Mode {
            SLOW_DOWN,
            CLOSE,
            SILENT
        }

        private final ServerSocket server;
        private final AtomicInteger requests = new AtomicInteger();
        private final Mode mode;
        private final CountDownLatch closed = new CountDownLatch(1);

        FakeDependency(Mode mode) throws IOException {
            this.mode = mode;
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(this::serve, "fake-dependency");
            t.setDaemon(true);
            t.start();
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + server.getLocalPort());
        }

        int requests() {
            return requests.get();
        }

        private void serve() {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread t = new Thread(() -> answer(s), "fake-dependency-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void answer(Socket socket) {
            try (socket) {
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
                while (true) {
                    String requestLine = in.readLine();
                    if (requestLine == null) {
                        return;
                    }
                    long length = 0;
                    for (String h = in.readLine(); h != null && !h.isEmpty(); h = in.readLine()) {
                        if (h.toLowerCase().startsWith("content-length:")) {
                            length = Long.parseLong(h.substring(15).strip());
                        }
                    }
                    in.skip(length);
                    requests.incrementAndGet();
                    switch (mode) {
                        case CLOSE -> {
                            return;
                        }
                        case SILENT -> {
                            closed.await(); // never answers while the test runs
                            return;
                        }
                        case SLOW_DOWN -> {
                            byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
                                            + "<Message>Please reduce your request rate.</Message></Error>")
                                    .getBytes(StandardCharsets.UTF_8);
                            OutputStream out = socket.getOutputStream();
                            out.write(("HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: "
                                            + body.length + "\r\n\r\n")
                                    .getBytes(StandardCharsets.ISO_8859_1));
                            out.write(body);
                            out.flush();
                        }
                    }
                }
            } catch (IOException | InterruptedException ignored) {
                // the client went away
            }
        }

        @Override
        public void close() throws IOException {
            closed.countDown();
            server.close();
        }
    }
}
