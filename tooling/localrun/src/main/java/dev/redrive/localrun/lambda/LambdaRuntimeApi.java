package dev.redrive.localrun.lambda;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * The public AWS Lambda Runtime API, for one sandbox: the function process polls
 * {@code GET /2018-06-01/runtime/invocation/next}, and answers on {@code .../invocation/{id}/response} or
 * {@code .../invocation/{id}/error} (or {@code /runtime/init/error} when it cannot start). Each invocation carries
 * the request id, the deadline, the function ARN and a trace id in the headers, as on AWS. Binds 127.0.0.1 on a port
 * the OS picks.
 *
 * <p>A function started as SnapStart starts one ({@code AWS_LAMBDA_INITIALIZATION_TYPE=snap-start}) runs its
 * {@code beforeCheckpoint} hooks at the end of its init and then asks {@code GET .../restore/next}. No snapshot is taken
 * here: the answer comes at once, and the same process goes on as a restored one would (its {@code afterRestore} hooks,
 * then its first poll), so the hooks' cost lands in the init and their effect on the first invocation can be measured.
 */
public final class LambdaRuntimeApi implements AutoCloseable {

    private static final String PREFIX = "/2018-06-01/runtime/";

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lambda-runtime-api");
        t.setDaemon(true);
        return t;
    });
    private final BlockingQueue<Pending> queued = new LinkedBlockingQueue<>();
    private final Map<String, Pending> inFlight = new ConcurrentHashMap<>();
    private final String functionArn;
    private final AtomicReference<String> initError = new AtomicReference<>();
    private final CompletableFuture<Void> firstPoll = new CompletableFuture<>();
    private final AtomicReference<String> restoreError = new AtomicReference<>();
    private volatile boolean restoreAsked;
    private final Semaphore dispatched = new Semaphore(0);
    private volatile Runnable onEventTaken = () -> {};
    private volatile BooleanSupplier refuseAnswers = () -> false;

    private record Pending(
            String requestId,
            String payload,
            long deadlineMillis,
            long startedNanos,
            CompletableFuture<InvocationResult> result) {}

    public LambdaRuntimeApi(String functionArn) throws IOException {
        this.functionArn = functionArn;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext(PREFIX, this::handle);
        server.setExecutor(threads);
        server.start();
    }

    /** The value for {@code AWS_LAMBDA_RUNTIME_API}. */
    public String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** Completes when the function has polled for its first invocation: it is initialized. */
    public CompletableFuture<Void> ready() {
        return firstPoll;
    }

    /** The initialization error the function reported, if any. */
    public String initError() {
        return initError.get();
    }

    /** Whether the function ran a SnapStart init: its checkpoint hooks ran and it asked to be restored. */
    public boolean restoreAsked() {
        return restoreAsked;
    }

    /** The error the function reported from its {@code afterRestore} hooks, if any. */
    public String restoreError() {
        return restoreError.get();
    }

    /** Hands {@code payload} to the function; the result completes with its answer, its error, or a timeout. */
    public CompletableFuture<InvocationResult> invoke(String payload, Duration timeout) {
        long now = System.currentTimeMillis();
        Pending p = new Pending(
                UUID.randomUUID().toString(),
                payload,
                now + timeout.toMillis(),
                System.nanoTime(),
                new CompletableFuture<>());
        inFlight.put(p.requestId(), p);
        queued.add(p);
        return p.result()
                .completeOnTimeout(new InvocationResult.Timeout(timeout), timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((r, e) -> inFlight.remove(p.requestId()));
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
        try {
            if ("GET".equals(exchange.getRequestMethod()) && "invocation/next".equals(path)) {
                next(exchange);
            } else if ("POST".equals(exchange.getRequestMethod()) && path.startsWith("invocation/")) {
                answer(exchange, path.substring("invocation/".length()));
            } else if ("GET".equals(exchange.getRequestMethod()) && "restore/next".equals(path)) {
                restoreAsked = true;
                respond(exchange, 200, "");
            } else if ("POST".equals(exchange.getRequestMethod()) && "restore/error".equals(path)) {
                String body = read(exchange.getRequestBody());
                restoreError.set(header(exchange, "Lambda-Runtime-Function-Error-Type") + ": " + body);
                firstPoll.completeExceptionally(new IllegalStateException("function restore failed: " + body));
                respond(exchange, 202, "{\"status\":\"OK\"}");
            } else if ("POST".equals(exchange.getRequestMethod()) && "init/error".equals(path)) {
                String body = read(exchange.getRequestBody());
                initError.set(header(exchange, "Lambda-Runtime-Function-Error-Type") + ": " + body);
                firstPoll.completeExceptionally(new IllegalStateException("function init failed: " + body));
                respond(exchange, 202, "{\"status\":\"OK\"}");
            } else {
                respond(exchange, 404, "{\"errorMessage\":\"unknown runtime API path " + path + "\"}");
            }
        } finally {
            exchange.close();
        }
    }

    private void next(HttpExchange exchange) throws IOException {
        firstPoll.complete(null);
        Pending p;
        try {
            do {
                p = queued.take();
            } while (p.result().isDone()); // timed out before the function asked for it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            respond(exchange, 500, "{}");
            return;
        }
        var h = exchange.getResponseHeaders();
        h.add("Lambda-Runtime-Aws-Request-Id", p.requestId());
        h.add("Lambda-Runtime-Deadline-Ms", Long.toString(p.deadlineMillis()));
        h.add("Lambda-Runtime-Invoked-Function-Arn", functionArn);
        h.add(
                "Lambda-Runtime-Trace-Id",
                "Root=1-" + Long.toHexString(System.currentTimeMillis() / 1000) + "-"
                        + p.requestId().replace("-", "").substring(0, 24) + ";Sampled=0");
        h.add("Content-Type", "application/json");
        respond(exchange, 200, p.payload());
        dispatched.release();
        onEventTaken.run();
    }

    /** Runs {@code listener} each time the function has taken an invocation (after {@code next} returned it). */
    public void onEventTaken(Runnable listener) {
        this.onEventTaken = listener == null ? () -> {} : listener;
    }

    /**
     * While {@code refuse} holds, answers (responses and errors) are not taken: the connection is dropped, as when
     * the sandbox dies before its answer is out. Fault injection uses it for a sandbox about to be killed.
     */
    public void refuseAnswersWhile(BooleanSupplier refuse) {
        this.refuseAnswers = refuse == null ? () -> false : refuse;
    }

    /**
     * The sandbox's process ended: every invocation it holds or was about to take ends with {@code errorBody}, as
     * Lambda answers {@code Runtime.ExitError} instead of waiting for the timeout.
     */
    public void sandboxExited(String errorBody) {
        firstPoll.completeExceptionally(new IllegalStateException("the sandbox exited before its first poll"));
        for (Pending p : inFlight.values()) {
            p.result()
                    .complete(new InvocationResult.FunctionError(
                            "Runtime.ExitError", errorBody, Duration.ofNanos(System.nanoTime() - p.startedNanos())));
        }
    }

    /** Forgets earlier dispatches, before an invocation whose dispatch is to be awaited. */
    public void forgetDispatches() {
        dispatched.drainPermits();
    }

    /** Waits until the function has taken an invocation from {@code next}; false on timeout. */
    public boolean awaitDispatch(Duration timeout) throws InterruptedException {
        return dispatched.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void answer(HttpExchange exchange, String rest) throws IOException {
        int slash = rest.indexOf('/');
        String id = slash < 0 ? rest : rest.substring(0, slash);
        String kind = slash < 0 ? "" : rest.substring(slash + 1);
        String body = read(exchange.getRequestBody());
        if (refuseAnswers.getAsBoolean()) {
            throw new IllegalStateException("the sandbox is being killed; its answer is not taken");
        }
        Pending p = inFlight.get(id);
        if (p == null) {
            respond(exchange, 400, "{\"errorMessage\":\"unknown or expired request id\"}");
            return;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - p.startedNanos());
        if ("response".equals(kind)) {
            p.result().complete(new InvocationResult.Response(body, took));
        } else {
            String type = header(exchange, "Lambda-Runtime-Function-Error-Type");
            p.result().complete(new InvocationResult.FunctionError(type == null ? "Unhandled" : type, body, took));
        }
        respond(exchange, 202, "{\"status\":\"OK\"}");
    }

    private static String header(HttpExchange exchange, String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }

    private static String read(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
        queued.forEach(p -> p.result().complete(new InvocationResult.Timeout(Duration.ZERO)));
    }
}
