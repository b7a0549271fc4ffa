package dev.redrive.aws.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/**
 * Redrive's own AWS calls give up within a few attempts: counted at a local server that answers every DynamoDB call
 * the way a throttled or failing table does.
 */
class PlatformClientsTest {

    private HttpServer table;
    private final AtomicInteger requests = new AtomicInteger();

    @AfterEach
    void stop() {
        if (table != null) {
            table.stop(0);
        }
    }

    @Test
    void aThrottledCallIsMadeThreeTimesInAllAndGivesUpInSeconds() throws IOException {
        answering(400, "ProvisionedThroughputExceededException");
        long started = System.nanoTime();

        assertThatThrownBy(() -> client(true).listTables()).isInstanceOf(ProvisionedThroughputExceededException.class);

        assertThat(requests.get()).isEqualTo(PlatformClients.DEFAULT_MAX_ATTEMPTS);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aFailingCallIsMadeThreeTimesInAll() throws IOException {
        answering(500, "InternalServerError");

        assertThatThrownBy(() -> client(true).listTables()).isInstanceOf(DynamoDbException.class);

        assertThat(requests.get()).isEqualTo(PlatformClients.DEFAULT_MAX_ATTEMPTS);
    }

    @Test
    void theDynamoDbClientsOwnDefaultMakesNineAttempts() throws IOException {
        // Why the rule is set on the client: left to itself, DynamoDB's client tries nine times (with throttling
        // backoffs up to 20 s, which outlasted the relay's timeout; a 500 backs off in milliseconds, so this is quick).
        answering(500, "InternalServerError");

        assertThatThrownBy(() -> client(false).listTables()).isInstanceOf(DynamoDbException.class);

        assertThat(requests.get()).isEqualTo(9);
    }

    @Test
    void attemptsOutsideOneToFiveAreRefused() {
        assertThatThrownBy(() -> PlatformClients.retryStrategy(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PlatformClients.retryStrategy(6))
                .hasMessage("Redrive's own AWS calls make 1 to 5 attempts (the redelivery is the retry), not 6");
    }

    private void answering(int status, String type) throws IOException {
        table = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        table.createContext("/", exchange -> {
            requests.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            byte[] body = ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#" + type + "\",\"message\":\"no\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.0");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        table.start();
    }

    private DynamoDbClient client(boolean withTheRule) {
        DynamoDbClientBuilder builder = DynamoDbClient.builder()
                .endpointOverride(
                        URI.create("http://127.0.0.1:" + table.getAddress().getPort()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("id", "secret")))
                .httpClient(UrlConnectionHttpClient.create());
        if (withTheRule) {
            builder.overrideConfiguration(o -> PlatformClients.configure(o, PlatformClients.DEFAULT_MAX_ATTEMPTS));
        }
        return builder.build();
    }
}
