package dev.redrive.functions.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Sits between the runtime interface client and Quarkus' mock event server (127.0.0.1, a free port) and adds what
 * Lambda's Runtime API always sends and the mock server does not: {@code Lambda-Runtime-Deadline-Ms} on each next
 * invocation, {@value #TIMEOUT_SECONDS} s ahead (the consumer's default timeout). Without it the client reports the
 * deadline as passed, and every effect would be refused as past its lease.
 */
final class DeadlineHeaderProxy implements AutoCloseable {

    static final String DEADLINE = "Lambda-Runtime-Deadline-Ms";
    private static final long TIMEOUT_SECONDS = 60;
    private static final Set<String> NOT_FORWARDED =
            Set.of("host", "content-length", "connection", "transfer-encoding", "expect");

    private final String target;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    /** @param target the mock event server's {@code host:port} */
    DeadlineHeaderProxy(String target) throws IOException {
        this.target = target;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::forward);
        server.setExecutor(threads);
        server.start();
    }

    /** {@code 127.0.0.1:port}, for {@code AWS_LAMBDA_RUNTIME_API}. */
    String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(
                            URI.create("http://" + target + exchange.getRequestURI()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase())) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().map().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase()) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
            });
            if (exchange.getRequestURI().getPath().endsWith("/invocation/next")
                    && response.headers().firstValue(DEADLINE).isEmpty()) {
                long deadline = System.currentTimeMillis() + TIMEOUT_SECONDS * 1000;
                exchange.getResponseHeaders().put(DEADLINE, List.of(Long.toString(deadline)));
            }
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
