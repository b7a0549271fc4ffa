package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.payload.ClaimCheckPointer;
import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.aws.payload.S3ClaimChecks;
import dev.redrive.checkout.placing.CheckoutService;
import dev.redrive.checkout.placing.DynamoDbCheckoutStore;
import dev.redrive.checkout.placing.OutboxEvent;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.localrun.chaos.ProducerCrashPoint;
import dev.redrive.localrun.chaos.ProducerCrashes;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localrun.lambda.SandboxExit;
import dev.redrive.localrun.lambda.SandboxSpec;
import dev.redrive.localrun.report.RunReport;
import dev.redrive.localrun.scenario.CheckoutTraffic;
import dev.redrive.localrun.scenario.Observer;
import dev.redrive.localrun.scenario.OrderTraffic;
import dev.redrive.localrun.scenario.Scenario;
import dev.redrive.localstack.PaymentProviderSimulator;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The system end to end as the local run starts it: the packaged functions (examples/checkout/functions/target) as child processes
 * polling the local Lambda Runtime API, the SQS pollers and resources from the synthesized template
 * (examples/checkout/infra/target/cdk.out). Nothing in process but local AWS.
 *
 * <p>The scenario runs first: its checker reads the whole system as a user's would (the revenue counter, every
 * charge the payment provider kept, the outbox), so the orders the other tests place must come after it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalRunEndToEndTest {

    static LocalSystem system;
    static RunOptions options;

    @BeforeAll
    static void start() throws Exception {
        options = new RunOptions(
                "basic",
                10,
                200,
                12,
                3,
                3,
                Optional.empty(),
                LocalRunFixture.demoTemplate(),
                LocalRunFixture.packagedFunctions(),
                2,
                60,
                // relative, as bin/redrive-local's tooling/localrun/target/run is: every path a sandbox is given must
                // be made
                // absolute, since each sandbox runs in a folder of its own
                Path.of("target", "test-run"));
        system = LocalRunFixture.start(options);
    }

    @AfterAll
    static void stop() {
        if (system != null) {
            system.close();
        }
    }

    @Test
    @Order(1)
    void aSmallScenarioRunsThroughThePackagedArtifactAndTheRuntimeApi() throws Exception {
        RunReport report = new RunReport("basic");
        Scenario.named("basic").run(system, options, new Progress(System.out), report);

        Map<String, Object> result = report.toMap();
        assertThat(result.get("checks")).asString().doesNotContain("false");
        assertThat(report.passed()).isTrue();
        assertThat(String.valueOf(result.get("what happened to each message")))
                .contains("applied once; its duplicate (new message id) was acknowledged without running the effect")
                .contains("PERMANENT UnsupportedCurrency")
                .contains("SCHEMA NotJson");
        Map<String, Map<String, Long>> runtime = system.runtimeFigures();
        assertThat(runtime.get(LocalSystem.EMAIL).get("invocations")).isPositive();
        assertThat(runtime.get(LocalSystem.EMAIL).get("processStartToFirstResponseMs"))
                .isPositive();
        assertThat(system.apiCalls().get(LocalSystem.EMAIL))
                .containsKey("dynamodb:PutItem")
                .containsKey("s3:PUT");
    }

    /**
     * The run trained a class-data archive of the packaged functions, and the sandboxes' own command line maps it: with
     * {@code -Xshare:on} the JVM refuses to start if it cannot (a class path that differs from the training's, a jar
     * rebuilt since). No sandbox of the run warned that it could not use it.
     */
    @Test
    void theSandboxesMapTheClassDataArchiveTheRunTrained() throws Exception {
        assertThat(system.javaRuntime().classDataArchive())
                .as("the run trained a class-data archive")
                .hasValueSatisfying(a -> assertThat(a)
                        .isRegularFile()
                        .startsWith(options.workDir().toAbsolutePath()));
        SandboxSpec spec = system.sandboxSpec(LocalSystem.EMAIL);
        Path tmp = Files.createTempDirectory(options.workDir(), "archive-check-");
        List<String> sandbox = spec.artifact().command(system.javaRuntime(), spec.memoryMb(), tmp, spec.handler());
        List<String> command = new ArrayList<>(sandbox.subList(0, sandbox.size() - 2)); // without main class, handler
        command.add(1, "-Xshare:on");
        command.add("-version");
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue())
                .as("java -Xshare:on with the sandboxes' flags:%n%s", output)
                .isZero();
        try (var logs = Files.list(options.workDir())) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
                assertThat(Files.readString(log)).as(log.toString()).doesNotContain("shared archive");
            }
        }
    }

    /**
     * Four sandboxes of the packaged email function starting at the same moment all start and load the runtime
     * client's JNI library from the run's own folder. Twenty such rounds run against a small function in {@code
     * ConcurrentSandboxStartsTest}; one round here shows the packaged functions start the same way.
     */
    @Test
    void fourSandboxesOfThePackagedFunctionStartingAtOnceAllStart() throws Exception {
        SandboxSpec spec = system.sandboxSpec(LocalSystem.EMAIL);
        Path logs = Files.createTempDirectory(options.workDir(), "concurrent-starts-");
        List<SandboxExit> exits = new CopyOnWriteArrayList<>();
        List<String> failures = new CopyOnWriteArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(4);
        CyclicBarrier together = new CyclicBarrier(4);
        List<FunctionInstance> sandboxes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sandboxes.add(new FunctionInstance(
                    spec, i, system.javaRuntime(), logs.resolve("sandbox-" + i + ".log"), exits::add));
        }
        try {
            List<Future<?>> started = new ArrayList<>();
            for (FunctionInstance sandbox : sandboxes) {
                started.add(starters.submit(() -> {
                    together.await();
                    try {
                        sandbox.start(Duration.ofSeconds(60));
                    } catch (RuntimeException e) {
                        failures.add(e.getMessage());
                    }
                    return null;
                }));
            }
            for (Future<?> f : started) {
                f.get(3, TimeUnit.MINUTES);
            }
        } finally {
            sandboxes.forEach(FunctionInstance::close);
            starters.shutdownNow();
        }
        assertThat(exits).as("sandboxes that died while starting").isEmpty();
        assertThat(failures).as("starts that failed").isEmpty();
        assertThat(system.javaRuntime().jniLibrary())
                .as("the JNI library every sandbox loads lives in this run's folder")
                .startsWith(options.workDir().toAbsolutePath())
                .isRegularFile();
    }

    /**
     * A payload over SQS's 1 MiB by claim check, through the packaged consumer as the template configures it: the
     * producer puts a 5 MiB order in the stack's claim-check bucket and sends the pointer (the SQS Extended Client
     * Library's format); the consumer reads it, applies it once, and leaves the payload to the bucket's lifecycle rule.
     */
    @Test
    void aFiveMebibyteOrderByClaimCheckIsAppliedOnceByThePackagedConsumer() {
        String bucket = system.environmentOf(LocalSystem.EMAIL).get(ClaimCheckSettings.BUCKET_VARIABLE);
        assertThat(bucket)
                .as("the template tells the consumer its claim-check bucket")
                .isNotBlank();
        OrderTraffic.Order order = new OrderTraffic(system.aws().sqs(), 11)
                .newOrders(1, 0, "claim-check")
                .get(0);
        String plain = order.body();
        String payload =
                plain.substring(0, plain.lastIndexOf('}')) + ",\"pad\":\"" + "x".repeat(5 * 1024 * 1024) + "\"}";
        ClaimChecks.ClaimCheck check = new S3ClaimChecks(system.aws().s3(), bucket).checkIn(payload);
        Map<String, MessageAttributeValue> attributes = new java.util.HashMap<>();
        check.attributes()
                .forEach((k, v) -> attributes.put(
                        k,
                        MessageAttributeValue.builder()
                                .dataType(ClaimCheckPointer.SIZE_DATA_TYPE)
                                .stringValue(v)
                                .build()));

        String queue = system.sourceQueueUrl(LocalSystem.EMAIL);
        system.aws()
                .sqs()
                .sendMessage(b -> b.queueUrl(queue).messageBody(check.body()).messageAttributes(attributes));
        system.aws()
                .sqs()
                .sendMessage(b -> b.queueUrl(queue).messageBody(check.body()).messageAttributes(attributes));

        var observer = new Observer(system);
        String key = LocalSystem.EMAIL + "#" + order.eventId();
        await().failFast(system::failIfBroken)
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> "COMPLETED".equals(observer.claimStatus(key)));
        await().failFast(system::failIfBroken)
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> system
                        .aws()
                        .sqs()
                        .getQueueAttributes(b -> b.queueUrl(queue)
                                .attributeNames(
                                        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                        .attributes()
                        .values()
                        .stream()
                        .allMatch("0"::equals));

        assertThat(observer.emailWritesPerKey().entrySet().stream()
                        .filter(e -> e.getKey().contains(order.eventId()))
                        .mapToInt(Map.Entry::getValue)
                        .sum())
                .as("the pointer delivered twice, the email written once")
                .isEqualTo(1);
        assertThat(system.aws().s3().listObjectsV2(b -> b.bucket(bucket)).contents())
                .as("the payload is left to the lifecycle rule")
                .isNotEmpty();
    }

    @Test
    void aSandboxKilledMidBatchLeavesItsMessagesToReappearAndBeProcessedOnce() throws Exception {
        String queue = system.sourceQueueUrl(LocalSystem.EMAIL);
        // Short invisibility so the killed batch reappears in seconds (the template's is 6 x the function timeout).
        system.aws()
                .sqs()
                .setQueueAttributes(
                        b -> b.queueUrl(queue).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "3")));
        AtomicBoolean firstBatch = new AtomicBoolean(true);
        system.crashEmailSandboxOn("evt-kill-");
        var traffic = new OrderTraffic(system.aws().sqs(), 7);
        var orders = traffic.newOrders(8, 0, "kill");
        long errorsBefore = system.runtimeFigures().get(LocalSystem.EMAIL).get("errors");
        traffic.send(orders, List.of(queue));
        await().failFast(system::failIfBroken)
                .atMost(Duration.ofSeconds(60))
                .until(() -> system.runtimeFigures().get(LocalSystem.EMAIL).get("errors") > errorsBefore);
        system.crashEmailSandboxOn("never-matches-" + firstBatch.getAndSet(false));

        var observer = new Observer(system);
        await().failFast(system::failIfBroken)
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> orders.stream()
                        .allMatch(
                                o -> "COMPLETED".equals(observer.claimStatus(LocalSystem.EMAIL + "#" + o.eventId()))));

        Map<String, Integer> writes = observer.emailWritesPerKey();
        assertThat(orders)
                .allSatisfy(o -> assertThat(writes.entrySet().stream()
                                .filter(e -> e.getKey().contains(o.eventId()))
                                .mapToInt(Map.Entry::getValue)
                                .sum())
                        .as("writes of %s", o.eventId())
                        .isEqualTo(1));
        assertThat(system.runtimeFigures().get(LocalSystem.EMAIL).get("batchesFailedWhole"))
                .isPositive();
    }

    /**
     * Each row of the checkout's answers, through its Function URL as the template serves it: the packaged function
     * in its sandboxes, the orders table on local AWS, the payment-provider simulator. Charges are counted at the
     * provider and stock read from the table.
     */
    @Test
    void theCheckoutAnswersEachRowThroughItsFunctionUrlAndThePackagedFunction() throws Exception {
        DynamoDbCheckoutStore store = new DynamoDbCheckoutStore(
                system.aws().dynamoDb(),
                system.environmentOf(LocalSystem.CHECKOUT).get("REDRIVE_CHECKOUT_ORDERS_TABLE"));
        store.stock("sku-rows", 5, 700, "EUR");
        PaymentProviderSimulator provider = system.paymentProvider();
        CheckoutTraffic customer = new CheckoutTraffic(
                system.functionUrl(LocalSystem.CHECKOUT), system.aws().credentials(), "us-east-1", 1L, 1);
        ObjectMapper json = new ObjectMapper();
        String two = "{\"customer\":{\"email\":\"ada@example.com\"},\"items\":[{\"sku\":\"sku-rows\",\"quantity\":2}],"
                + "\"currency\":\"EUR\",\"paymentToken\":\"tok_visa_rows\"}";
        try {
            HttpResponse<String> placed = customer.post("rows-1", two);
            assertThat(placed.statusCode()).as(placed.body()).isEqualTo(201);
            JsonNode order = json.readTree(placed.body());
            assertThat(order.path("total").path("amountMinor").asLong()).isEqualTo(1_400);
            assertThat(placed.headers().firstValue("Location"))
                    .contains("/orders/" + order.path("orderId").asText());
            assertThat(store.available("sku-rows")).isEqualTo(3);

            HttpResponse<String> replayed = customer.post("rows-1", two);
            assertThat(replayed.statusCode()).isEqualTo(201);
            assertThat(replayed.headers().firstValue("Idempotent-Replayed")).contains("true");
            assertThat(json.readTree(replayed.body()).path("orderId")).isEqualTo(order.path("orderId"));
            assertThat(provider.charges())
                    .filteredOn(c -> c.key().equals("rows-1"))
                    .hasSize(1);
            assertThat(store.available("sku-rows")).as("no second reservation").isEqualTo(3);

            HttpResponse<String> reused = customer.post("rows-1", two.replace("\"quantity\":2", "\"quantity\":1"));
            assertThat(reused.statusCode()).isEqualTo(422);
            assertThat(json.readTree(reused.body()).path("error").asText()).isEqualTo("IdempotencyKeyReused");

            HttpResponse<String> declined = customer.post("rows-2", two.replace("tok_visa_rows", "tok_decline_rows"));
            assertThat(declined.statusCode()).isEqualTo(402);
            assertThat(store.available("sku-rows"))
                    .as("its reservation released")
                    .isEqualTo(3);
            assertThat(provider.charges())
                    .filteredOn(c -> c.key().equals("rows-2"))
                    .allMatch(c -> c.voided());

            int callsBefore = provider.calls();
            HttpResponse<String> tooFew = customer.post("rows-3", two.replace("\"quantity\":2", "\"quantity\":4"));
            assertThat(tooFew.statusCode()).isEqualTo(409);
            assertThat(json.readTree(tooFew.body()).path("skus"))
                    .extracting(JsonNode::asText)
                    .containsExactly("sku-rows");
            assertThat(provider.calls()).as("nothing charged").isEqualTo(callsBefore);
            assertThat(store.available("sku-rows")).isEqualTo(3);

            provider.fault(PaymentProviderSimulator.Fault.HANG_AFTER_AUTHORIZING, 1, Duration.ofSeconds(8));
            HttpResponse<String> timedOut = customer.post("rows-4", two.replace("\"quantity\":2", "\"quantity\":1"));
            assertThat(timedOut.statusCode()).as(timedOut.body()).isEqualTo(503);
            assertThat(timedOut.headers().firstValue("Retry-After")).isPresent();
            HttpResponse<String> finished = customer.post("rows-4", two.replace("\"quantity\":2", "\"quantity\":1"));
            assertThat(finished.statusCode()).as(finished.body()).isEqualTo(201);
            assertThat(provider.charges())
                    .as("the retry found the authorization the provider made: one charge")
                    .filteredOn(c -> c.key().equals("rows-4"))
                    .singleElement()
                    .satisfies(c -> assertThat(c.voided()).isFalse());
            assertThat(store.available("sku-rows")).isEqualTo(2);

            HttpResponse<String> bad = customer.post("rows-5", "{\"items\":[]}");
            assertThat(bad.statusCode()).isEqualTo(400);
            HttpResponse<String> noKey = customer.post(null, two);
            assertThat(noKey.statusCode()).isEqualTo(400);
        } finally {
            customer.close();
        }
    }

    /**
     * DynamoDB refuses every mark the relay writes (throttling) while three orders are placed: the relay publishes
     * them, gives up on their marks and answers well within its 30 s timeout, leaving them unpublished for the outbox
     * sweep, which republishes them once the marks go through again. Red before the functions' SDK clients had a
     * bounded retry: DynamoDB's legacy default retries a throttle 8 times with backoffs up to 20 s (at least ~36 s in
     * all), so the relay's invocation ran into its timeout, its sandbox was replaced and the stream's batch came back,
     * again and again.
     */
    @Test
    void aRelayWhoseMarksAreThrottledAnswersInTimeAndTheSweepRepublishes() throws Exception {
        DynamoDbCheckoutStore store = new DynamoDbCheckoutStore(
                system.aws().dynamoDb(),
                system.environmentOf(LocalSystem.CHECKOUT).get("REDRIVE_CHECKOUT_ORDERS_TABLE"));
        store.stock("sku-throttled", 10, 700, "EUR");
        long timeoutsBefore = system.pool(LocalSystem.RELAY).timeouts();
        long relayedBefore = system.relayed();
        CheckoutTraffic customer = new CheckoutTraffic(
                system.functionUrl(LocalSystem.CHECKOUT), system.aws().credentials(), "us-east-1", 3L, 1);
        List<String> orders = new ArrayList<>();
        // The outbox sweep's schedule is held while the relay's marks are refused: at the run's schedule speed it fires
        // every few seconds, and a sweep in that window republishes and marks an event itself (a CI run on a loaded
        // machine: the relay's mark refused at 05:28:39, the event marked at 05:28:42 by a sweep that logged at
        // 05:28:45), so what this half checks, that the relay left its events unpublished, would not hold. The second
        // half invokes the sweep itself.
        system.holdSchedule(LocalSystem.OUTBOX_SWEEPER, true);
        system.producerCrashes().refuseRelayMarks(true);
        try {
            for (int i = 1; i <= 3; i++) {
                String key = "throttled-marks-" + i;
                String body = "{\"customer\":{\"email\":\"ada@example.com\"},\"items\":[{\"sku\":"
                        + "\"sku-throttled\",\"quantity\":1}],\"currency\":\"EUR\",\"paymentToken\":\"tok_visa_"
                        + i + "\"}";
                assertThat(customer.post(key, body).statusCode()).isEqualTo(201);
                orders.add(CheckoutService.orderIdOf(key));
            }
            long started = System.nanoTime();
            await().failFast(system::failIfBroken)
                    .atMost(Duration.ofSeconds(90))
                    .until(() -> system.relayed() >= relayedBefore + 3);
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(system.producerCrashes().marksRefused())
                    .as("DynamoDB refused the relay's marks")
                    .isPositive();
            assertThat(system.pool(LocalSystem.RELAY).timeouts() - timeoutsBefore)
                    .as("relay invocations that ran into their timeout (published %d in %s)", 3, took)
                    .isZero();
            assertThat(took).as("the relay gave up on its marks in seconds").isLessThan(Duration.ofSeconds(25));
            assertThat(orders)
                    .as("published, left unpublished in the outbox")
                    .allSatisfy(o -> assertThat(store.publishedAt(o, 1)).isEmpty());
        } finally {
            system.producerCrashes().refuseRelayMarks(false);
            system.holdSchedule(LocalSystem.OUTBOX_SWEEPER, false);
            customer.close();
        }
        await().failFast(system::failIfBroken)
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    system.invokeNow(LocalSystem.OUTBOX_SWEEPER);
                    return orders.stream().allMatch(o -> store.publishedAt(o, 1).isPresent());
                });
    }

    /**
     * The producer's crash points, each a SIGKILL of the packaged function's sandbox from its DynamoDB proxy: the
     * checkout after the reservation, after the authorization (its order's transaction never arrives), after the
     * transaction (its answer never read), and the relay after publishing (its marks never arrive). A client that
     * retries with its key gets its one order; one that never comes back is a ghost, voided by the reconciliation with
     * its stock released; the relay's batch comes back from the stream and the consumers absorb the duplicate.
     */
    @Test
    void aCheckoutOrRelayKilledAtEachCrashPointLosesNoOrderAndLeavesNoChargeStanding() throws Exception {
        DynamoDbCheckoutStore store = new DynamoDbCheckoutStore(
                system.aws().dynamoDb(),
                system.environmentOf(LocalSystem.CHECKOUT).get("REDRIVE_CHECKOUT_ORDERS_TABLE"));
        store.stock("sku-crash", 10, 500, "EUR");
        PaymentProviderSimulator provider = system.paymentProvider();
        ProducerCrashes crashes = system.producerCrashes();
        crashes.arm(ProducerCrashPoint.CHECKOUT_RESERVED, "crash-reserved");
        crashes.arm(ProducerCrashPoint.CHECKOUT_AUTHORIZED, "crash-authorized");
        crashes.arm(ProducerCrashPoint.CHECKOUT_AUTHORIZED, "crash-ghost");
        crashes.arm(ProducerCrashPoint.CHECKOUT_PLACED, "crash-placed");
        crashes.arm(ProducerCrashPoint.RELAY_PUBLISHED, "crash-relayed");
        crashes.arm(ProducerCrashPoint.RECONCILIATION_VOIDED, "crash-ghost");
        List<String> retried = List.of("crash-reserved", "crash-authorized", "crash-placed");
        List<String> placed = List.of("crash-reserved", "crash-authorized", "crash-placed", "crash-relayed");
        String body = "{\"customer\":{\"email\":\"grace@example.com\"},\"items\":[{\"sku\":\"sku-crash\","
                + "\"quantity\":1}],\"currency\":\"EUR\",\"paymentToken\":\"tok_visa_crash\"}";
        CheckoutTraffic customer = new CheckoutTraffic(
                system.functionUrl(LocalSystem.CHECKOUT), system.aws().credentials(), "us-east-1", 2L, 1);
        ExecutorService customers = Executors.newFixedThreadPool(5);
        try {
            Map<String, Future<HttpResponse<String>>> first = new java.util.LinkedHashMap<>();
            for (String key : List.of("crash-reserved", "crash-authorized", "crash-ghost", "crash-placed")) {
                first.put(key, customers.submit(() -> customer.post(key, body)));
            }
            first.put("crash-relayed", customers.submit(() -> customer.post("crash-relayed", body)));
            for (String key : List.of("crash-reserved", "crash-authorized", "crash-ghost", "crash-placed")) {
                HttpResponse<String> r = first.get(key).get(120, TimeUnit.SECONDS);
                assertThat(r.statusCode())
                        .as("%s: the invocation ended with its sandbox (%s)", key, r.body())
                        .isEqualTo(502);
            }
            assertThat(first.get("crash-relayed").get(120, TimeUnit.SECONDS).statusCode())
                    .isEqualTo(201);
            assertThat(crashes.struck(ProducerCrashPoint.CHECKOUT_RESERVED)).isEqualTo(1);
            assertThat(crashes.struck(ProducerCrashPoint.CHECKOUT_AUTHORIZED)).isEqualTo(2);
            assertThat(crashes.struck(ProducerCrashPoint.CHECKOUT_PLACED)).isEqualTo(1);

            for (String key : retried) {
                HttpResponse<String> answer = retryUntilFinal(customer, key, body);
                assertThat(answer.statusCode())
                        .as("%s retried: %s", key, answer.body())
                        .isEqualTo(201);
                if (key.equals("crash-placed")) {
                    assertThat(answer.headers().firstValue("Idempotent-Replayed"))
                            .as("its transaction was applied before the sandbox died: the same order")
                            .contains("true");
                }
            }

            // The ghost: authorized, never placed, its client not back in time. The reconciliation voids it once its
            // lease and the grace (15 min at the run's speed) are over, and is killed before it releases its stock.
            await().failFast(system::failIfBroken)
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> {
                        system.invokeNow(LocalSystem.RECONCILIATION);
                        // The void may be a scheduled run's, still on its way to the crash point when the provider
                        // already answers voided: wait for the strike too (asserted exactly once below).
                        return provider.charges().stream()
                                        .filter(c -> c.key().equals("crash-ghost"))
                                        .allMatch(PaymentProviderSimulator.Charge::voided)
                                && crashes.struck(ProducerCrashPoint.RECONCILIATION_VOIDED) >= 1;
                    });
            assertThat(provider.charges())
                    .as("the ghost was authorized")
                    .anyMatch(c -> c.key().equals("crash-ghost"));
            assertThat(crashes.struck(ProducerCrashPoint.RECONCILIATION_VOIDED)).isEqualTo(1);
            assertThat(retryUntilFinal(customer, "crash-ghost", body).statusCode())
                    .as("a client back after its authorization was voided, its stock not yet released: never an order"
                            + " on a void authorization")
                    .isEqualTo(410);
            // The next run, once the dead run's lease and the grace are over, ends what it left: the stock back.
            await().failFast(system::failIfBroken)
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> {
                        system.invokeNow(LocalSystem.RECONCILIATION);
                        return store.abandoned(Instant.now().plus(Duration.ofDays(1)), 100).stream()
                                .noneMatch(a -> a.key().equals("crash-ghost"));
                    });

            for (String key : placed) {
                assertThat(provider.charges())
                        .as("%s: exactly one standing charge, of its amount", key)
                        .filteredOn(c -> c.key().equals(key))
                        .singleElement()
                        .satisfies(c -> {
                            assertThat(c.voided()).isFalse();
                            assertThat(c.amountMinor()).isEqualTo(500);
                        });
            }
            assertThat(store.available("sku-crash"))
                    .as("one unit reserved per order placed, the ghost's released: no orphan reservation")
                    .isEqualTo(10 - placed.size());

            var observer = new Observer(system);
            List<String> events = placed.stream()
                    .map(k -> store.outbox(CheckoutService.orderIdOf(k)))
                    .flatMap(List::stream)
                    .map(OutboxEvent::eventId)
                    .toList();
            assertThat(events).hasSize(placed.size());
            await().failFast(system::failIfBroken)
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> events.stream()
                            .allMatch(e -> "COMPLETED".equals(observer.claimStatus(LocalSystem.EMAIL + "#" + e))
                                    && "COMPLETED".equals(observer.claimStatus(LocalSystem.REVENUE + "#" + e))));
            assertThat(crashes.struck(ProducerCrashPoint.RELAY_PUBLISHED)).isEqualTo(1);
            Map<String, Integer> writes = observer.emailWritesPerKey();
            assertThat(events)
                    .allSatisfy(e -> assertThat(writes.entrySet().stream()
                                    .filter(w -> w.getKey().contains(e))
                                    .mapToInt(Map.Entry::getValue)
                                    .sum())
                            .as("emails of %s", e)
                            .isEqualTo(1));
            await().failFast(system::failIfBroken)
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> placed.stream()
                            .allMatch(k -> store.publishedAt(CheckoutService.orderIdOf(k), 1)
                                    .isPresent()));
        } finally {
            customers.shutdownNow();
            customer.close();
        }
    }

    /** The client's retries with its key: again while the checkout is in progress or the function failed. */
    private static HttpResponse<String> retryUntilFinal(CheckoutTraffic customer, String key, String body) {
        List<HttpResponse<String>> last = new CopyOnWriteArrayList<>();
        await().failFast(system::failIfBroken)
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    HttpResponse<String> r = customer.post(key, body);
                    last.add(r);
                    return r.statusCode() != 409 && r.statusCode() / 100 != 5
                            || r.statusCode() == 409 && !r.body().contains("InProgress");
                });
        return last.get(last.size() - 1);
    }
}
