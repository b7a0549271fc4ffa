package dev.redrive.functions.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.DevServicesContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The packaged function as the integration tests reach it: events go through Quarkus' mock Lambda event server
 * (started by the test on a free port), which the launched artifact polls as it would poll Lambda's Runtime API.
 */
final class LambdaArtifact {

    static final ObjectMapper JSON = new ObjectMapper();
    /** An invocation without an answer after this long fails instead of hanging the build. */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final URI invocations;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    LambdaArtifact(DevServicesContext context) {
        // host:port/_lambda_, the Runtime API base the launched artifact polls; events are posted to it
        String runtimeApi = context.devServicesProperties().get("quarkus-internal.aws-lambda.test-api");
        assertThat(runtimeApi)
                .as("the mock event server's address in "
                        + context.devServicesProperties().keySet())
                .isNotBlank();
        this.invocations = URI.create("http://" + runtimeApi);
    }

    /** Invokes the function with {@code event} and returns its response. */
    JsonNode invoke(Object event) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(invocations)
                        .timeout(TIMEOUT)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(event)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("invocation: " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
