package dev.redrive.localrun.eventsource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.redrive.localrun.lambda.InvocationResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * A Lambda Function URL, locally: an HTTP server on 127.0.0.1 and a free port that turns each request into the API
 * Gateway v2 (payload format 2.0) event Lambda builds for a Function URL, invokes the function, and answers with its
 * response as Lambda maps it:
 * <ul>
 *   <li>headers lower-cased, repeated ones joined by commas, cookies apart; the query string raw and parsed; the body
 *       as text, or base64 when it is not text ({@code isBase64Encoded}); {@code requestContext} with the method, path,
 *       source address, user agent, request id and time;</li>
 *   <li>a response with a {@code statusCode} gives its status, headers, cookies and body (decoded when base64); any
 *       other JSON answer is a 200 with that JSON as the body; a function error or a timeout is a 502;</li>
 *   <li>with {@code AWS_IAM} auth, a request without a SigV4 {@code Authorization} for the {@code lambda} service and
 *       an {@code X-Amz-Date} is refused with 403 before the function is invoked. The signature itself is not
 *       verified here (the local credentials are the same for every caller).</li>
 * </ul>
 * Requests are served concurrently, each invocation on the function's own sandboxes.
 */
public final class FunctionUrlServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FunctionUrlServer.class);
    /** Lambda's limit on a synchronous invocation's request payload. */
    static final int MAX_REQUEST_BYTES = 6 * 1024 * 1024;

    private static final Pattern SIGV4 = Pattern.compile(
            "AWS4-HMAC-SHA256 Credential=([^/]+)/\\d{8}/[^/]+/([^/]+)/aws4_request, ?SignedHeaders=.+, ?"
                    + "Signature=[0-9a-f]{64}");
    private static final DateTimeFormatter REQUEST_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final HttpServer server;
    private final ExecutorService workers;
    private final DynamoDbStreamPoller.Invoker function;
    private final boolean requiresSignature;
    private final String urlId;
    private final String region;
    private final String accountId;
    private final ObjectMapper json = new ObjectMapper();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong badGateway = new AtomicLong();

    private FunctionUrlServer(
            HttpServer server,
            int concurrency,
            DynamoDbStreamPoller.Invoker function,
            boolean requiresSignature,
            String region,
            String accountId) {
        this.server = server;
        this.function = function;
        this.requiresSignature = requiresSignature;
        this.region = region;
        this.accountId = accountId;
        this.urlId = UUID.randomUUID().toString().replace("-", "");
        this.workers = Executors.newFixedThreadPool(Math.max(1, concurrency), r -> {
            Thread t = new Thread(r, "function-url");
            t.setDaemon(true);
            return t;
        });
        server.createContext("/", this::serve);
        server.setExecutor(workers);
    }

    /** Serves {@code function} on a free loopback port, {@code concurrency} requests at once. */
    public static FunctionUrlServer start(
            DynamoDbStreamPoller.Invoker function,
            boolean requiresSignature,
            int concurrency,
            String region,
            String accountId)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        FunctionUrlServer url =
                new FunctionUrlServer(server, concurrency, function, requiresSignature, region, accountId);
        server.start();
        return url;
    }

    /** Where it listens, as the Function URL's base ({@code http://127.0.0.1:PORT/}). */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    private void serve(HttpExchange exchange) throws IOException {
        requests.incrementAndGet();
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readNBytes(MAX_REQUEST_BYTES + 1);
            }
            if (body.length > MAX_REQUEST_BYTES) {
                respond(
                        exchange,
                        413,
                        "{\"Message\":\"Request must be smaller than 6291456 bytes for the "
                                + "InvokeFunction operation\"}");
                return;
            }
            if (requiresSignature && !signed(exchange)) {
                refused.incrementAndGet();
                respond(exchange, 403, "{\"Message\":\"Forbidden\"}");
                return;
            }
            InvocationResult result;
            try {
                result = function.invoke(json.writeValueAsString(event(exchange, body)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                respond(exchange, 503, "{\"Message\":\"Service Unavailable\"}");
                return;
            }
            if (!(result instanceof InvocationResult.Response response)) {
                badGateway.incrementAndGet();
                respond(exchange, 502, "{\"Message\":\"Internal Server Error\"}");
                return;
            }
            answer(exchange, response.body());
        } catch (IOException | RuntimeException e) {
            LOG.debugf("function URL: %s", e.toString());
            throw e;
        }
    }

    /** Whether the request carries a SigV4 signature for Lambda (its form, not its value: see the class comment). */
    private boolean signed(HttpExchange exchange) {
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        String date = exchange.getRequestHeaders().getFirst("X-Amz-Date");
        if (auth == null || date == null) {
            return false;
        }
        Matcher m = SIGV4.matcher(auth);
        return m.matches() && m.group(2).equals("lambda");
    }

    /** The API Gateway v2 event Lambda builds for this request. */
    ObjectNode event(HttpExchange exchange, byte[] body) {
        URI uri = exchange.getRequestURI();
        ObjectNode e = json.createObjectNode();
        e.put("version", "2.0");
        e.put("routeKey", "$default");
        e.put("rawPath", uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath());
        e.put("rawQueryString", uri.getRawQuery() == null ? "" : uri.getRawQuery());
        Map<String, String> headers = new TreeMap<>();
        List<String> cookies = new ArrayList<>();
        exchange.getRequestHeaders().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("cookie")) {
                values.forEach(v -> {
                    for (String c : v.split(";")) {
                        if (!c.isBlank()) {
                            cookies.add(c.strip());
                        }
                    }
                });
            } else {
                headers.merge(lower, String.join(",", values), (a, b) -> a + "," + b);
            }
        });
        if (!cookies.isEmpty()) {
            cookies.forEach(e.putArray("cookies")::add);
        }
        ObjectNode h = e.putObject("headers");
        headers.forEach(h::put);
        if (uri.getRawQuery() != null && !uri.getRawQuery().isEmpty()) {
            ObjectNode q = e.putObject("queryStringParameters");
            for (String pair : uri.getRawQuery().split("&")) {
                int eq = pair.indexOf('=');
                String k = decode(eq < 0 ? pair : pair.substring(0, eq));
                String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
                q.put(k, q.has(k) ? q.get(k).asText() + "," + v : v);
            }
        }
        Instant now = Instant.now();
        ObjectNode ctx = e.putObject("requestContext");
        ctx.put("accountId", requiresSignature ? accountId : "anonymous");
        ctx.put("apiId", urlId);
        if (requiresSignature) {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            Matcher m = SIGV4.matcher(auth);
            String accessKey = m.matches() ? m.group(1) : "";
            ObjectNode iam = ctx.putObject("authorizer").putObject("iam");
            iam.put("accessKey", accessKey);
            iam.put("accountId", accountId);
            iam.put("callerId", accessKey);
            iam.put("userArn", "arn:aws:iam::" + accountId + ":user/local");
            iam.put("userId", accessKey);
        }
        ctx.put("domainName", urlId + ".lambda-url." + region + ".on.aws");
        ctx.put("domainPrefix", urlId);
        ObjectNode http = ctx.putObject("http");
        http.put("method", exchange.getRequestMethod());
        http.put("path", e.get("rawPath").asText());
        http.put("protocol", exchange.getProtocol());
        http.put("sourceIp", exchange.getRemoteAddress().getAddress().getHostAddress());
        String agent = exchange.getRequestHeaders().getFirst("User-Agent");
        http.put("userAgent", agent == null ? "" : agent);
        ctx.put("requestId", UUID.randomUUID().toString());
        ctx.put("routeKey", "$default");
        ctx.put("stage", "$default");
        ctx.put("time", REQUEST_TIME.format(now));
        ctx.put("timeEpoch", now.toEpochMilli());
        if (body.length > 0) {
            boolean text = isText(headers.get("content-type"));
            e.put(
                    "body",
                    text
                            ? new String(body, StandardCharsets.UTF_8)
                            : Base64.getEncoder().encodeToString(body));
            e.put("isBase64Encoded", !text);
        } else {
            e.put("isBase64Encoded", false);
        }
        return e;
    }

    private static boolean isText(String contentType) {
        if (contentType == null) {
            return false;
        }
        String t = contentType.toLowerCase(Locale.ROOT);
        return t.startsWith("text/")
                || t.contains("json")
                || t.contains("xml")
                || t.contains("javascript")
                || t.startsWith("application/x-www-form-urlencoded");
    }

    private static String decode(String s) {
        return java.net.URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** Maps the function's answer to the HTTP response, as Lambda does for a Function URL. */
    private void answer(HttpExchange exchange, String answer) throws IOException {
        JsonNode node;
        try {
            node = json.readTree(answer);
        } catch (JsonProcessingException e) {
            node = null;
        }
        if (node == null || !node.isObject() || !node.has("statusCode")) {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            respond(exchange, 200, answer == null ? "" : answer);
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.path("headers").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> h = it.next();
            exchange.getResponseHeaders().set(h.getKey(), h.getValue().asText());
        }
        node.path("cookies").forEach(c -> exchange.getResponseHeaders().add("Set-Cookie", c.asText()));
        String text = node.path("body").isNull() ? "" : node.path("body").asText("");
        byte[] bytes = node.path("isBase64Encoded").asBoolean(false)
                ? Base64.getDecoder().decode(text)
                : text.getBytes(StandardCharsets.UTF_8);
        send(exchange, node.path("statusCode").asInt(200), bytes);
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        if (!exchange.getResponseHeaders().containsKey("Content-Type")) {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
        }
        send(exchange, status, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, byte[] bytes) throws IOException {
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Requests served, refused for want of a signature, and answered 502 (a function error or timeout). */
    public Map<String, Long> figures() {
        return Map.of(
                "urlRequests", requests.get(), "urlRefusedUnsigned", refused.get(), "urlBadGateway", badGateway.get());
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }
}
