package dev.redrive.testing.localaws.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The launcher serves one request at a time, behind one lock: a request that holds the lock holds up every other. A
 * client that stops halfway through sending a body (a process frozen mid-write) must not be one of those; and one that
 * does hold the lock too long is reported, with where each thread of the launcher stands.
 */
class MotoStallTest {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aClientThatStopsHalfwayThroughItsBodyHoldsUpNoOtherRequest() throws Exception {
        try (MotoServer moto = MotoServer.start(Map.of("REDRIVE_MOTO_STALL_SECONDS", "1"));
                Socket halfway =
                        new Socket(moto.endpoint().getHost(), moto.endpoint().getPort())) {
            OutputStream out = halfway.getOutputStream();
            out.write(("POST / HTTP/1.1\r\nHost: " + moto.endpoint().getAuthority()
                            + "\r\nContent-Type: application/x-amz-json-1.0\r\n"
                            + "X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 100\r\n\r\n{\"Lim")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush(); // and nothing more while the socket stays open

            HttpResponse<String> other = http.send(
                    HttpRequest.newBuilder(moto.endpoint().resolve("/moto-api/data.json"))
                            .timeout(Duration.ofSeconds(20))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(other.statusCode()).isEqualTo(200);
            assertThat(moto.stallReports()).as("no request held the lock").isEmpty();
        }
    }

    @Test
    void aRequestThatHoldsTheLockTooLongIsReportedWithWhereTheThreadsStand() throws Exception {
        try (MotoServer moto =
                MotoServer.start(Map.of("REDRIVE_MOTO_STALL_SECONDS", "0.5", "REDRIVE_MOTO_TEST_HOLD", "1"))) {
            HttpResponse<String> held = http.send(
                    HttpRequest.newBuilder(URI.create(moto.endpoint() + "/redrive-moto/hold?seconds=3"))
                            .timeout(Duration.ofSeconds(20))
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(held.body()).isEqualTo("held");

            // reported on moto's stdout while the request held the lock; read from there by a thread of its own
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !moto.stallReports().isEmpty());
            assertThat(moto.stallReports())
                    .as("the stall report")
                    .first()
                    .asString()
                    .contains("a request (POST /redrive-moto/hold)")
                    .contains("has held the lock for");
            assertThat(String.join("\n", moto.stallReports()))
                    .as("where the threads stand: the holder in its sleep, the reporter, the server")
                    .contains("in _hold")
                    .contains("in _report_stalls")
                    .contains("serve_forever");
            assertThat(moto.stallReports().stream().filter(l -> l.contains("has held the lock")))
                    .as("reported once per request")
                    .hasSize(1);
        }
    }
}
