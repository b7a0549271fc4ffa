package dev.redrive.localrun.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.CheckoutStore;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * The customers: place orders with {@code POST /orders} on the checkout's Function URL, as a client of an AWS_IAM URL
 * does (SigV4-signed for the {@code lambda} service), each with its own {@code Idempotency-Key}; a 503 or an
 * in-progress 409 is retried with the same key after its {@code Retry-After}, as the checkout asks. Every answer is
 * kept, so the run can be reconciled with what the payment provider charged: each 201 is an order whose OrderPlaced
 * event the consumers must apply once.
 */
public final class CheckoutTraffic {

    /** The skus the run stocks: enough of each for any run, at prices in minor units (euro cents). */
    static final Map<String, Long> CATALOGUE =
            Map.of("sku-mug", 1_250L, "sku-tee", 2_400L, "sku-cap", 1_800L, "sku-book", 3_100L, "sku-pen", 350L);

    /** The skus sold in yen (a currency the revenue report refuses), at prices in yen. */
    static final Map<String, Long> CATALOGUE_JPY = Map.of("sku-jp-tea", 1_200L, "sku-jp-fan", 3_500L);

    static final long STOCK_PER_SKU = 10_000_000L;
    private static final Set<String> RETRIED = Set.of("PaymentProviderUnavailable", "InProgress", "Unavailable");

    /**
     * How a customer treats an answer that is not final (a 503 or a 409 in progress, as the checkout asks; a 5xx of
     * the Function URL, or no answer at all): how many requests it sends in all, whether it retries a 5xx without a
     * checkout code and a lost answer (a client retrying a request whose outcome it does not know, as it should with
     * an Idempotency-Key), and the longest it waits between two.
     */
    public record Patience(int attempts, boolean retriesUnknownOutcomes, Duration longestWait) {
        /** Retries what the checkout asks it to, 8 requests in all. */
        public static final Patience ORDINARY = new Patience(8, false, Duration.ofSeconds(5));
        /** Retries until it has a final answer, for several minutes (the chaos run's customers). */
        public static final Patience PERSISTENT = new Patience(60, true, Duration.ofSeconds(5));
        /** Gives up at the first answer that is not final (what it leaves is the reconciliation's). */
        public static final Patience NONE = new Patience(1, false, Duration.ZERO);
    }

    /**
     * One checkout as the customer asked it and how it ended: its last answer's status and error code ({@code 0}:
     * none came), the order of a 201, and whether the customer gave up without a final answer.
     */
    public record Checkout(
            String key,
            String email,
            String paymentToken,
            String currency,
            int status,
            String code,
            Order order,
            boolean gaveUp) {
        public boolean placed() {
            return status == 201;
        }

        /** An answer that will not change for this key: placed, or refused for good. */
        public boolean finalAnswer() {
            if (gaveUp) {
                return false;
            }
            return switch (status) {
                case 201, 400, 402, 410, 422 -> true;
                case 409 -> "OutOfStock".equals(code);
                default -> false;
            };
        }

        Checkout answered(int status, String code, Order order, boolean gaveUp) {
            return new Checkout(key, email, paymentToken, currency, status, code, order, gaveUp);
        }
    }

    private final URI orders;
    private final AwsCredentialsProvider credentials;
    private final String region;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
    private final Random random;
    private final ExecutorService customers;
    private final Map<String, Checkout> answered = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong unanswered = new AtomicLong();
    private final AtomicLong sequence = new AtomicLong();

    public CheckoutTraffic(URI functionUrl, AwsCredentialsProvider credentials, String region, long seed, int at) {
        this.orders = functionUrl.resolve("/orders");
        this.credentials = credentials;
        this.region = region;
        this.random = new Random(seed);
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        this.customers = Executors.newFixedThreadPool(Math.max(1, at), r -> {
            Thread t = new Thread(r, "customer");
            t.setDaemon(true);
            return t;
        });
    }

    /** Stocks the catalogues in the checkout's store ({@link #stocked()} of each sku). */
    public static void stock(CheckoutStore store) {
        CATALOGUE.forEach((sku, price) -> store.stock(sku, STOCK_PER_SKU, price, "EUR"));
        CATALOGUE_JPY.forEach((sku, price) -> store.stock(sku, STOCK_PER_SKU, price, "JPY"));
    }

    /** Every sku's stock level as {@link #stock} sets it. */
    public static Map<String, Long> stocked() {
        Map<String, Long> levels = new TreeMap<>();
        CATALOGUE.keySet().forEach(sku -> levels.put(sku, STOCK_PER_SKU));
        CATALOGUE_JPY.keySet().forEach(sku -> levels.put(sku, STOCK_PER_SKU));
        return levels;
    }

    /** The order a checkout places, if it does: named by its key. */
    public static String orderIdOf(Checkout c) {
        return CheckoutService.orderIdOf(c.key());
    }

    /** A new checkout's request in euros: its key, customer, 1–3 lines and a payment token ({@code declined}: refused). */
    public Checkout newCheckout(String label, boolean declined) {
        return newCheckout(label, declined, "EUR");
    }

    /** A new checkout's request in {@code currency} (EUR, or JPY: the yen catalogue). */
    public synchronized Checkout newCheckout(String label, boolean declined, String currency) {
        long n = sequence.incrementAndGet();
        String key = "ck-" + label + "-" + n;
        String token = declined ? "tok_decline_" + n : "tok_visa_" + n;
        return new Checkout(key, "c" + n + "-" + label + "@example.com", token, currency, 0, null, null, false);
    }

    /** Places {@code count} new orders at once (the customers' concurrency); every one of them must be placed. */
    public List<Order> place(int count, String label) throws InterruptedException {
        List<Checkout> wanted = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            wanted.add(newCheckout(label, false));
        }
        List<Order> placed = new ArrayList<>();
        for (Checkout c : submit(wanted)) {
            if (!c.placed()) {
                throw new IllegalStateException("checkout " + c.key() + " was answered " + c.status() + " " + c.code()
                        + " after " + Patience.ORDINARY.attempts() + " attempts; the scenario needs it placed");
            }
            placed.add(c.order());
        }
        return placed;
    }

    /** Sends each checkout (retried as the checkout asks); their final answers, in order. */
    public List<Checkout> submit(List<Checkout> checkouts) throws InterruptedException {
        List<Future<Checkout>> futures = new ArrayList<>();
        for (Checkout c : checkouts) {
            futures.add(customers.submit(() -> send(c, Patience.ORDINARY)));
        }
        List<Checkout> done = new ArrayList<>();
        for (Future<Checkout> f : futures) {
            try {
                done.add(f.get());
            } catch (ExecutionException e) {
                throw new IllegalStateException("a customer could not reach the checkout: " + e.getCause(), e);
            }
        }
        return done;
    }

    /** The same checkout again, as a client that lost the answer retries it: the same key and body. */
    public Checkout retry(Checkout c) throws InterruptedException {
        return send(c, Patience.ORDINARY);
    }

    /**
     * Sends {@code c} on the caller's thread, retried with {@code patience}; its last answer (a customer that gave up
     * is remembered as such). Never throws for an answer or a lost one.
     */
    public Checkout place(Checkout c, Patience patience) throws InterruptedException {
        return send(c, patience);
    }

    private Checkout send(Checkout c, Patience patience) throws InterruptedException {
        String body = body(c);
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> r;
            try {
                r = post(c.key(), body);
            } catch (IOException lost) {
                unanswered.incrementAndGet();
                if (!patience.retriesUnknownOutcomes() || attempt >= patience.attempts()) {
                    return remember(c.answered(0, "NoAnswer", null, true));
                }
                Thread.sleep(Math.min(1_000, patience.longestWait().toMillis()));
                continue;
            }
            statuses.computeIfAbsent(r.statusCode(), s -> new AtomicLong()).incrementAndGet();
            JsonNode answer = parse(r.body());
            String code = answer.path("error").asText(null);
            if (r.statusCode() == 201) {
                Order order = new Order(
                        answer.path("eventId").asText(),
                        answer.path("orderId").asText(),
                        answer.path("total").path("amountMinor").asLong(),
                        answer.path("total").path("currency").asText(),
                        2);
                return remember(c.answered(201, null, order, false));
            }
            boolean asked = (r.statusCode() == 503 || r.statusCode() == 409) && RETRIED.contains(code);
            boolean unknown = r.statusCode() >= 500 && code == null;
            boolean again = asked || unknown && patience.retriesUnknownOutcomes();
            Checkout answered = c.answered(r.statusCode(), code, null, false);
            if (!again) {
                return remember(answered);
            }
            if (attempt >= patience.attempts()) {
                return remember(c.answered(r.statusCode(), code, null, true));
            }
            long seconds = r.headers().firstValueAsLong("Retry-After").orElse(1);
            Thread.sleep(Math.min(patience.longestWait().toMillis(), seconds * 1_000));
        }
    }

    private Checkout remember(Checkout c) {
        answered.put(c.key(), c);
        return c;
    }

    private JsonNode parse(String body) {
        if (body == null || body.isEmpty()) {
            return json.createObjectNode();
        }
        try {
            return json.readTree(body);
        } catch (IOException notJson) {
            return json.createObjectNode(); // a gateway's answer, not the checkout's
        }
    }

    /** The request body: the customer, 1–3 lines of the catalogue (from the key, so a retry sends the same). */
    public String body(Checkout c) {
        Random lines = new Random(c.key().hashCode());
        List<String> skus =
                new ArrayList<>(new TreeMap<>("JPY".equals(c.currency()) ? CATALOGUE_JPY : CATALOGUE).keySet());
        ObjectNode b = json.createObjectNode();
        b.putObject("customer").put("email", c.email());
        var items = b.putArray("items");
        int count = 1 + lines.nextInt(Math.min(3, skus.size()));
        for (int i = 0; i < count; i++) {
            String sku = skus.remove(lines.nextInt(skus.size()));
            items.addObject().put("sku", sku).put("quantity", 1 + lines.nextInt(3));
        }
        b.put("currency", c.currency());
        b.put("paymentToken", c.paymentToken());
        return b.toString();
    }

    /** One signed {@code POST /orders} with this key and body, as it is (no retry); a null key sends none. */
    public HttpResponse<String> post(String key, String body) throws IOException, InterruptedException {
        requests.incrementAndGet();
        SdkHttpRequest.Builder builder = SdkHttpRequest.builder()
                .method(SdkHttpMethod.POST)
                .uri(orders)
                .putHeader("Content-Type", "application/json");
        if (key != null) {
            builder.putHeader("Idempotency-Key", key);
        }
        SdkHttpRequest unsigned = builder.build();
        SignedRequest signed = signer.sign(r -> r.identity(credentials.resolveCredentials())
                .request(unsigned)
                .payload(ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "lambda")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        HttpRequest.Builder request = HttpRequest.newBuilder(orders)
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        signed.request().headers().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!lower.equals("host") && !lower.equals("content-length")) {
                values.forEach(v -> request.header(name, v));
            }
        });
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Every checkout's final answer, by key. */
    public Map<String, Checkout> answered() {
        return Map.copyOf(answered);
    }

    /** HTTP answers by status, retries included. */
    public Map<Integer, Long> statuses() {
        Map<Integer, Long> out = new TreeMap<>();
        statuses.forEach((s, n) -> out.put(s, n.get()));
        return out;
    }

    public long requests() {
        return requests.get();
    }

    /** Requests whose answer never came (the connection failed or timed out). */
    public long unanswered() {
        return unanswered.get();
    }

    public void close() {
        customers.shutdownNow();
    }
}
