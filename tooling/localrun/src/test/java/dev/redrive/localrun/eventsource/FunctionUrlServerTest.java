package dev.redrive.localrun.eventsource;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.lambda.InvocationResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;

/**
 * The local Function URL: the API Gateway v2 event it builds from a request, the HTTP answer it makes of the function's
 * response, and the AWS_IAM gate in front of the function.
 */
class FunctionUrlServerTest {

    final ObjectMapper json = new ObjectMapper();
    final List<JsonNode> events = new CopyOnWriteArrayList<>();
    final AtomicReference<InvocationResult> answer = new AtomicReference<>(new InvocationResult.Response(
            "{\"statusCode\":201,\"headers\":{\"Location\":\"/orders/o-1\",\"Content-Type\":\"application/json\"},"
                    + "\"body\":\"{\\\"orderId\\\":\\\"o-1\\\"}\",\"isBase64Encoded\":false}",
            Duration.ZERO));
    final HttpClient http = HttpClient.newHttpClient();
    FunctionUrlServer server;

    FunctionUrlServer serve(boolean iam) throws Exception {
        server = FunctionUrlServer.start(
                payload -> {
                    events.add(read(payload));
                    return answer.get();
                },
                iam,
                2,
                "us-east-1",
                "000000000000");
        return server;
    }

    JsonNode read(String payload) {
        try {
            return json.readTree(payload);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    HttpRequest.Builder signed(URI uri, String body) {
        SdkHttpRequest unsigned = SdkHttpRequest.builder()
                .method(SdkHttpMethod.POST)
                .uri(uri)
                .putHeader("Content-Type", "application/json")
                .putHeader("Idempotency-Key", "k-1")
                .build();
        var signedRequest = AwsV4HttpSigner.create()
                .sign(r -> r.identity(AwsBasicCredentials.create("AKIDLOCAL", "secret"))
                        .request(unsigned)
                        .payload(ContentStreamProvider.fromUtf8String(body))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "lambda")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1"));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(body));
        signedRequest.request().headers().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host") && !name.equalsIgnoreCase("content-length")) {
                values.forEach(v -> b.header(name, v));
            }
        });
        return b;
    }

    @Test
    void aSignedPostBecomesTheApiGatewayV2EventAndItsAnswerTheResponse() throws Exception {
        serve(true);
        URI uri = server.url().resolve("/orders?channel=web&x=1");

        HttpResponse<String> r = http.send(
                signed(uri, "{\"items\":[]}").header("Cookie", "a=1; b=2").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(r.headers().firstValue("Location")).contains("/orders/o-1");
        assertThat(r.body()).isEqualTo("{\"orderId\":\"o-1\"}");
        JsonNode e = events.get(0);
        assertThat(e.path("version").asText()).isEqualTo("2.0");
        assertThat(e.path("routeKey").asText()).isEqualTo("$default");
        assertThat(e.path("rawPath").asText()).isEqualTo("/orders");
        assertThat(e.path("rawQueryString").asText()).isEqualTo("channel=web&x=1");
        assertThat(e.path("queryStringParameters").path("channel").asText()).isEqualTo("web");
        assertThat(e.path("headers").path("idempotency-key").asText())
                .as("lower-cased")
                .isEqualTo("k-1");
        assertThat(e.path("headers").has("cookie")).as("cookies go apart").isFalse();
        assertThat(e.path("cookies")).extracting(JsonNode::asText).containsExactly("a=1", "b=2");
        assertThat(e.path("requestContext").path("http").path("method").asText())
                .isEqualTo("POST");
        assertThat(e.path("requestContext").path("http").path("path").asText()).isEqualTo("/orders");
        assertThat(e.path("requestContext").path("http").path("sourceIp").asText())
                .isEqualTo("127.0.0.1");
        assertThat(e.path("requestContext")
                        .path("authorizer")
                        .path("iam")
                        .path("accessKey")
                        .asText())
                .isEqualTo("AKIDLOCAL");
        assertThat(e.path("requestContext").path("domainName").asText()).endsWith(".lambda-url.us-east-1.on.aws");
        assertThat(e.path("requestContext").path("timeEpoch").asLong()).isPositive();
        assertThat(e.path("body").asText()).isEqualTo("{\"items\":[]}");
        assertThat(e.path("isBase64Encoded").asBoolean()).isFalse();
    }

    @Test
    void anIamUrlRefusesAnUnsignedRequestWithoutInvokingTheFunction() throws Exception {
        serve(true);

        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(server.url().resolve("/orders"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .header("Content-Type", "application/json")
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).isEqualTo("{\"Message\":\"Forbidden\"}");
        assertThat(events).isEmpty();
        assertThat(server.figures()).containsEntry("urlRefusedUnsigned", 1L);
    }

    @Test
    void aFunctionErrorIsA502AndAnAnswerWithoutAStatusIsA200WithItsJson() throws Exception {
        serve(false);
        URI uri = server.url().resolve("/anything");

        answer.set(new InvocationResult.FunctionError("Unhandled", "{}", Duration.ZERO));
        HttpResponse<String> error =
                http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        answer.set(new InvocationResult.Timeout(Duration.ofSeconds(15)));
        HttpResponse<String> timeout =
                http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        answer.set(new InvocationResult.Response("{\"hello\":\"world\"}", Duration.ZERO));
        HttpResponse<String> plain =
                http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        answer.set(new InvocationResult.Response(
                "{\"statusCode\":200,\"body\":\"AAEC\",\"isBase64Encoded\":true}", Duration.ZERO));
        HttpResponse<byte[]> binary =
                http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofByteArray());

        assertThat(error.statusCode()).isEqualTo(502);
        assertThat(timeout.statusCode()).isEqualTo(502);
        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(plain.body()).isEqualTo("{\"hello\":\"world\"}");
        assertThat(binary.body()).containsExactly(0, 1, 2);
        assertThat(events.get(0).path("requestContext").path("accountId").asText())
                .isEqualTo("anonymous");
        assertThat(events.get(0).has("body")).isFalse();
    }
}
