package dev.redrive.localrun.eventsource;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy in front of one local AWS endpoint, for one function: it counts the function's API calls by operation
 * ({@code X-Amz-Target} for DynamoDB and SQS, method for S3; a {@code !} marks a refused call), and, while an outage is
 * on, answers writes with {@code 503 SlowDown} — what a struggling provider says. A function is pointed at it through
 * its endpoint settings only; its code is unchanged.
 */
public final class AwsTrafficProxy implements AutoCloseable {

    private static final Set<String> HOP_BY_HOP =
            Set.of("host", "connection", "content-length", "transfer-encoding", "expect", "upgrade", "keep-alive");
    private static final byte[] SLOW_DOWN = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
                    + "<Message>Please reduce your request rate.</Message></Error>")
            .getBytes(StandardCharsets.UTF_8);

    private final URI target;
    private final HttpServer server;
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicBoolean outage = new AtomicBoolean();
    private final AtomicLong refused = new AtomicLong();
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();

    public AwsTrafficProxy(URI target) throws IOException {
        this.target = target;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(16, r -> {
            Thread t = new Thread(r, "aws-traffic-proxy");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public void outage(boolean on) {
        outage.set(on);
    }

    public boolean outage() {
        return outage.get();
    }

    public long refused() {
        return refused.get();
    }

    /** Calls by operation so far, sorted. */
    public Map<String, Long> calls() {
        Map<String, Long> copy = new TreeMap<>();
        calls.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    private void count(HttpExchange exchange, int status) {
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        String operation =
                target != null ? target.substring(target.indexOf('.') + 1) : "S3:" + exchange.getRequestMethod();
        calls.computeIfAbsent(status >= 400 ? operation + "!" : operation, k -> new AtomicLong())
                .incrementAndGet();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            boolean write = "PUT".equals(exchange.getRequestMethod()) || "POST".equals(exchange.getRequestMethod());
            if (outage.get() && write) {
                refused.incrementAndGet();
                count(exchange, 503);
                exchange.getResponseHeaders().add("Content-Type", "application/xml");
                exchange.sendResponseHeaders(503, SLOW_DOWN.length);
                exchange.getResponseBody().write(SLOW_DOWN);
                return;
            }
            HttpRequest.Builder forward = HttpRequest.newBuilder(
                            target.resolve(exchange.getRequestURI().getRawPath()
                                    + (exchange.getRequestURI().getRawQuery() == null
                                            ? ""
                                            : "?" + exchange.getRequestURI().getRawQuery())))
                    .timeout(Duration.ofSeconds(60))
                    .method(
                            exchange.getRequestMethod(),
                            body.length == 0
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase())) {
                    values.forEach(v -> forward.header(name, v));
                }
            });
            HttpResponse<byte[]> response = client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase()) && !":status".equals(name)) {
                    values.forEach(v -> exchange.getResponseHeaders().add(name, v));
                }
            });
            count(exchange, response.statusCode());
            byte[] answer = response.body();
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(response.statusCode(), head || answer.length == 0 ? -1 : answer.length);
            if (!head && answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
