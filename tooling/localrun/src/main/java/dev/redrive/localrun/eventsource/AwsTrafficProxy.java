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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy in front of one local AWS endpoint, for one sandbox (or one caller): it counts the calls by operation
 * ({@code X-Amz-Target} for DynamoDB and SQS, method for S3; a {@code !} marks a refused call), and, while an outage is
 * on, answers writes with {@code 503 SlowDown} — what a struggling provider says. A {@link Hook} sees every call
 * before it is forwarded and every answer before it is returned, so faults can be injected from outside the
 * function's code: an AWS error instead of the call, latency, a connection dropped with or without the call having
 * reached AWS, or the answer held back. A function is pointed at it through its endpoint settings only.
 */
public final class AwsTrafficProxy implements AutoCloseable {

    private static final Set<String> HOP_BY_HOP =
            Set.of("host", "connection", "content-length", "transfer-encoding", "expect", "upgrade", "keep-alive");
    private static final byte[] SLOW_DOWN = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
                    + "<Message>Please reduce your request rate.</Message></Error>")
            .getBytes(StandardCharsets.UTF_8);

    /** A call as it reached the proxy. */
    public record Call(
            String service, String method, String path, String query, Map<String, String> headers, byte[] body) {

        /** The operation: the {@code X-Amz-Target} suffix (DynamoDB, SQS), else {@code S3:<method>}. */
        public String operation() {
            String target = header("x-amz-target");
            return target != null ? target.substring(target.indexOf('.') + 1) : "S3:" + method;
        }

        /** A request header by its name in any case, or null. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** AWS's answer to a forwarded call. */
    public record Reply(int status, byte[] body) {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** What to do with a call, or with its answer. */
    public record Verdict(
            Kind kind,
            long delayMillis,
            int status,
            String contentType,
            Map<String, String> headers,
            byte[] body,
            Runnable afterReturned) {

        public enum Kind {
            /** Forward the call (before) or return the answer (after). */
            PASS,
            /** Wait, then forward the call (before only). */
            DELAY,
            /** Answer with this instead of forwarding (before only). */
            ANSWER,
            /** Close the connection without an answer: before, the call never reaches AWS; after, the answer is lost. */
            DROP
        }

        private static final Verdict PASS_ON = new Verdict(Kind.PASS, 0, 0, null, Map.of(), null, null);
        private static final Verdict DROPPED = new Verdict(Kind.DROP, 0, 0, null, Map.of(), null, null);

        public static Verdict pass() {
            return PASS_ON;
        }

        /** Return the answer, then run {@code then} (after only). */
        public static Verdict passThen(Runnable then) {
            return new Verdict(Kind.PASS, 0, 0, null, Map.of(), null, then);
        }

        public static Verdict delay(long millis) {
            return new Verdict(Kind.DELAY, millis, 0, null, Map.of(), null, null);
        }

        public static Verdict answer(int status, String contentType, Map<String, String> headers, String body) {
            return new Verdict(
                    Kind.ANSWER,
                    0,
                    status,
                    contentType,
                    Map.copyOf(headers),
                    body.getBytes(StandardCharsets.UTF_8),
                    null);
        }

        public static Verdict drop() {
            return DROPPED;
        }
    }

    /** Sees every call before it is forwarded and every answer before it is returned; may block (holding it). */
    public interface Hook {
        Hook NONE = new Hook() {};

        default Verdict before(Call call) {
            return Verdict.pass();
        }

        default Verdict after(Call call, Reply reply) {
            return Verdict.pass();
        }

        /**
         * {@code first}, then {@code then}, on one proxy. Before a call, the first verdict that does not pass it on is
         * the answer (and {@code then} does not see the call); after it, both see the answer (each keeps its own
         * bookkeeping): a dropped answer wins over a passed one, and every action to run once the answer is returned
         * runs (at once, when the answer is dropped).
         */
        static Hook inOrder(Hook first, Hook then) {
            return new Hook() {
                @Override
                public Verdict before(Call call) {
                    Verdict v = first.before(call);
                    return v.kind() == Verdict.Kind.PASS ? then.before(call) : v;
                }

                @Override
                public Verdict after(Call call, Reply reply) {
                    Verdict a = first.after(call, reply);
                    Verdict b = then.after(call, reply);
                    List<Runnable> actions = new ArrayList<>();
                    for (Verdict v : List.of(a, b)) {
                        if (v.afterReturned() != null) {
                            actions.add(v.afterReturned());
                        }
                    }
                    if (a.kind() == Verdict.Kind.DROP || b.kind() == Verdict.Kind.DROP) {
                        actions.forEach(Runnable::run);
                        return Verdict.drop();
                    }
                    return actions.isEmpty() ? Verdict.pass() : Verdict.passThen(() -> actions.forEach(Runnable::run));
                }
            };
        }
    }

    private final String service;
    private final URI target;
    private final HttpServer server;
    private final ExecutorService threads;
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final AtomicBoolean outage = new AtomicBoolean();
    private final AtomicLong refused = new AtomicLong();
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> awsNanos = new ConcurrentHashMap<>();
    private volatile Hook hook = Hook.NONE;

    /** A proxy for {@code target}, which serves {@code service} ({@code dynamodb}, {@code sqs}, {@code s3}). */
    public AwsTrafficProxy(String service, URI target) throws IOException {
        this.service = service;
        this.target = target;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", this::handle);
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "aws-traffic-proxy-" + service);
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public String service() {
        return service;
    }

    public void hook(Hook hook) {
        this.hook = hook == null ? Hook.NONE : hook;
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

    /** Time AWS took to answer, summed by operation, in nanoseconds (forwarded calls only). */
    public Map<String, Long> awsNanos() {
        Map<String, Long> copy = new TreeMap<>();
        awsNanos.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    private void count(Call call, int status) {
        String operation = call.operation();
        calls.computeIfAbsent(status >= 400 ? operation + "!" : operation, k -> new AtomicLong())
                .incrementAndGet();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Call call = callOf(exchange);
            boolean write = "PUT".equals(call.method()) || "POST".equals(call.method());
            if (outage.get() && write) {
                refused.incrementAndGet();
                count(call, 503);
                send(exchange, 503, "application/xml", Map.of(), SLOW_DOWN, false);
                return;
            }
            Verdict before = hook.before(call);
            switch (before.kind()) {
                case ANSWER -> {
                    count(call, before.status());
                    send(exchange, before.status(), before.contentType(), before.headers(), before.body(), false);
                    return;
                }
                case DROP -> throw new ConnectionDropped();
                case DELAY -> Thread.sleep(before.delayMillis());
                case PASS -> {}
            }
            long sent = System.nanoTime();
            HttpResponse<byte[]> response = forward(exchange, call);
            awsNanos.computeIfAbsent(call.operation(), k -> new AtomicLong()).addAndGet(System.nanoTime() - sent);
            count(call, response.statusCode());
            Verdict after = hook.after(call, new Reply(response.statusCode(), response.body()));
            if (after.kind() == Verdict.Kind.DROP) {
                throw new ConnectionDropped();
            }
            response.headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT)) && !":status".equals(name)) {
                    values.forEach(v -> exchange.getResponseHeaders().add(name, v));
                }
            });
            send(exchange, response.statusCode(), null, Map.of(), response.body(), "HEAD".equals(call.method()));
            if (after.afterReturned() != null) {
                exchange.close();
                after.afterReturned().run();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Call callOf(HttpExchange exchange) throws IOException {
        Map<String, String> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!values.isEmpty()) {
                headers.put(name.toLowerCase(Locale.ROOT), values.get(0));
            }
        });
        URI uri = exchange.getRequestURI();
        return new Call(
                service,
                exchange.getRequestMethod(),
                uri.getRawPath(),
                uri.getRawQuery(),
                headers,
                exchange.getRequestBody().readAllBytes());
    }

    private HttpResponse<byte[]> forward(HttpExchange exchange, Call call) throws IOException, InterruptedException {
        HttpRequest.Builder forward = HttpRequest.newBuilder(
                        target.resolve(call.path() + (call.query() == null ? "" : "?" + call.query())))
                .timeout(Duration.ofSeconds(60))
                .method(
                        call.method(),
                        call.body().length == 0
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(call.body()));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> forward.header(name, v));
            }
        });
        return client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void send(
            HttpExchange exchange,
            int status,
            String contentType,
            Map<String, String> headers,
            byte[] body,
            boolean head)
            throws IOException {
        if (contentType != null) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
        }
        headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        exchange.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Thrown out of the handler: the server then closes the connection without an answer. */
    private static final class ConnectionDropped extends RuntimeException {
        ConnectionDropped() {
            super("connection dropped by fault injection", null, false, false);
        }
    }

    /** The services a function reaches AWS through, one proxy each. */
    public static List<String> services() {
        return List.of("dynamodb", "sqs", "s3");
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
