package dev.redrive.aws.payload;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.redrive.testing.localaws.LocalAws;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3 as a role without {@code s3:ListBucket} on the bucket sees it: a stand-in on 127.0.0.1 (a free port) in front of
 * the local S3 (moto), forwarding every request, that answers a GetObject or HeadObject of a missing key with
 * <b>403 AccessDenied</b> instead of moto's 404 NoSuchKey. Moto answers 404 whatever the grants; AWS does not. S3's
 * GetObject documentation, "Permissions": "If you have the s3:ListBucket permission on the bucket, Amazon S3 returns an
 * HTTP status code 404 Not Found error. If you don't have the s3:ListBucket permission, Amazon S3 returns an HTTP
 * status code 403 Access Denied error." (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html)
 */
final class S3WithoutListBucket implements AutoCloseable {

    /** The error body S3 sends with that 403 (request ids made up). */
    static final String ACCESS_DENIED = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<Error><Code>AccessDenied</Code><Message>Access Denied</Message>"
            + "<RequestId>STANDIN0000000001</RequestId><HostId>stand-in</HostId></Error>";

    private static final Set<String> NOT_FORWARDED =
            Set.of("host", "content-length", "connection", "transfer-encoding", "expect", "upgrade");

    private final LocalAws aws;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final AtomicInteger denied = new AtomicInteger();

    S3WithoutListBucket(LocalAws aws) throws IOException {
        this.aws = aws;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::forward);
        server.setExecutor(threads);
        server.start();
    }

    /** An S3 client (path-style, the local credentials) whose every call goes through this stand-in. */
    S3Client client() {
        return S3Client.builder()
                .endpointOverride(
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .region(aws.region())
                .credentialsProvider(aws.credentials())
                .forcePathStyle(true)
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /** How many 404s it turned into 403s. */
    int denied() {
        return denied.get();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            String method = exchange.getRequestMethod();
            HttpRequest.Builder request = HttpRequest.newBuilder(
                            URI.create(aws.s3Endpoint().toString().replaceAll("/$", "") + exchange.getRequestURI()))
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            boolean objectRead = method.equals("GET") || method.equals("HEAD");
            boolean noSuchKey = response.statusCode() == 404
                    && (method.equals("HEAD")
                            || new String(response.body(), StandardCharsets.UTF_8).contains("NoSuchKey"));
            if (objectRead && noSuchKey) {
                denied.incrementAndGet();
                answer(
                        exchange,
                        403,
                        method.equals("HEAD") ? new byte[0] : ACCESS_DENIED.getBytes(StandardCharsets.UTF_8));
                return;
            }
            response.headers().map().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
            });
            byte[] answer = response.body();
            boolean noBody = method.equals("HEAD") || answer.length == 0;
            exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : answer.length);
            if (!noBody) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while forwarding to the local S3", e);
        }
    }

    private static void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/xml");
        exchange.getResponseHeaders().set("x-amz-request-id", "STANDIN0000000001");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
