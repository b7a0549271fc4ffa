package dev.redrive.localrun;

import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.localrun.chaos.CallClassifier;
import dev.redrive.localrun.chaos.Chaos;
import dev.redrive.localrun.eventsource.AwsTrafficProxy;
import dev.redrive.localrun.eventsource.LocalScheduler;
import dev.redrive.localrun.eventsource.SqsEventSourcePoller;
import dev.redrive.localrun.lambda.ClassDataArchive;
import dev.redrive.localrun.lambda.FunctionArtifact;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localrun.lambda.FunctionPool;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.localrun.lambda.ManagedJavaRuntime;
import dev.redrive.localrun.lambda.SandboxExit;
import dev.redrive.localrun.lambda.SandboxSpec;
import dev.redrive.localstack.EndpointOverrides;
import dev.redrive.localstack.LocalAws;
import dev.redrive.localstack.provision.LocalEventSourceMapping;
import dev.redrive.localstack.provision.LocalFunction;
import dev.redrive.localstack.provision.LocalQueue;
import dev.redrive.localstack.provision.LocalSchedule;
import dev.redrive.localstack.provision.ProvisionedResources;
import dev.redrive.localstack.provision.TemplateProvisioner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The whole system on this machine: local AWS provisioned from the synthesized template, each function of the
 * template running as sandboxes of the packaged artifact, an SQS poller per event source mapping and a scheduler per
 * schedule — all configured from the template. Every function reaches AWS through its own counting proxies, so its
 * API calls can be reported; the email function's S3 proxy can play an outage of the mail provider.
 */
public final class LocalSystem implements AutoCloseable {

    public static final String EMAIL = Handlers.CONFIRMATION_EMAIL;
    public static final String REVENUE = Handlers.REVENUE_ANALYTICS;
    public static final String SWEEPER = Handlers.DLQ_SWEEPER;

    private final LocalAws aws;
    private final boolean ownsAws;
    private final ProvisionedResources resources;
    private final FunctionArtifact artifact;
    private ManagedJavaRuntime javaRuntime; // set once, before the first sandbox starts
    private final Map<String, FunctionPool> pools = new LinkedHashMap<>();
    /** Each sandbox slot's own counting proxies (by service), per function: calls are known by sandbox. */
    private final Map<String, List<Map<String, AwsTrafficProxy>>> proxies = new ConcurrentHashMap<>();

    private final Chaos chaos;
    private volatile boolean emailOutage;
    private final List<SqsEventSourcePoller> pollers = new ArrayList<>();
    private final Map<String, SqsEventSourcePoller> pollerByFunction = new HashMap<>();
    private final List<AwsTrafficProxy> eventSourceProxies = new ArrayList<>();
    private final List<SqsClient> eventSourceClients = new ArrayList<>();
    private final LocalScheduler scheduler = new LocalScheduler();
    private final AtomicLong scheduledSweeps = new AtomicLong();
    private final AtomicLong failedSweeps = new AtomicLong();
    private final RunOptions options;

    private LocalSystem(
            LocalAws aws,
            boolean ownsAws,
            ProvisionedResources resources,
            FunctionArtifact artifact,
            ManagedJavaRuntime javaRuntime,
            RunOptions options) {
        this.aws = aws;
        this.ownsAws = ownsAws;
        this.resources = resources;
        this.artifact = artifact;
        this.javaRuntime = javaRuntime;
        this.options = options;
        this.chaos = options.chaos().map(c -> new Chaos(c, classifier())).orElse(null);
    }

    /** Starts local AWS, provisions the template, starts the functions, pollers and schedules. */
    public static LocalSystem start(RunOptions options, Progress progress) throws IOException, InterruptedException {
        if (!Files.isRegularFile(options.template())) {
            throw new IllegalStateException("no synthesized template at " + options.template()
                    + ": bin/redrive-local synthesizes it; or run  ./mvnw -pl infra package");
        }
        progress.step("starting local AWS");
        return start(options, progress, LocalAws.start(EndpointOverrides.fromEnvironment()), true);
    }

    /**
     * Starts on {@code aws} (a test JVM's shared local AWS, say): provisions the template, starts the functions,
     * pollers and schedules. {@link #close()} closes {@code aws} only when {@code ownsAws}.
     */
    public static LocalSystem start(RunOptions options, Progress progress, LocalAws aws, boolean ownsAws)
            throws IOException, InterruptedException {
        Files.createDirectories(options.workDir());
        LocalSystem system = null;
        try {
            progress.step("provisioning from " + options.template());
            ProvisionedResources resources = new TemplateProvisioner(aws).provision(options.template());
            FunctionArtifact artifact = FunctionArtifact.find(options.functionsTarget());
            ManagedJavaRuntime javaRuntime =
                    ManagedJavaRuntime.unpackInto(Files.createTempDirectory(options.workDir(), "run-"));
            system = new LocalSystem(aws, ownsAws, resources, artifact, javaRuntime, options);
            system.instrument();
            if (options.classDataArchive()) {
                system.trainClassDataArchive(progress);
            }
            system.startFunctions(options, progress);
            return system;
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (system != null) {
                system.close();
            } else if (ownsAws) {
                aws.close();
            }
            throw e;
        }
    }

    /** Reads AWS calls by the stack's names: its tables, buckets and queues. */
    private CallClassifier classifier() {
        Map<String, String> email = environmentOf(EMAIL);
        Map<String, String> revenue = environmentOf(REVENUE);
        Map<String, String> sweeper = environmentOf(SWEEPER);
        Set<String> deadLetterQueues = new HashSet<>();
        Set<String> sources = new HashSet<>();
        resources.queues().values().forEach(q -> (q.url().endsWith("-dlq") ? deadLetterQueues : sources).add(q.url()));
        deadLetterQueues.add(email.get("REDRIVE_DEAD_LETTERS_QUEUE_URL"));
        deadLetterQueues.add(revenue.get("REDRIVE_DEAD_LETTERS_QUEUE_URL"));
        sources.removeAll(deadLetterQueues);
        return new CallClassifier(
                email.get("REDRIVE_CLAIMS_TABLE"),
                revenue.get("REDRIVE_CHECKOUT_REVENUE_TABLE"),
                sweeper.get("REDRIVE_SWEEPER_QUARANTINE_TABLE"),
                sweeper.get("REDRIVE_SWEEPER_CONTROL_TABLE"),
                email.get("REDRIVE_CHECKOUT_EMAIL_OUTBOX_BUCKET"),
                sweeper.get("REDRIVE_SWEEPER_ARCHIVE_BUCKET"),
                deadLetterQueues,
                sources);
    }

    /**
     * Trains a class-data archive of the function artifact (see {@link ClassDataArchive}) for every sandbox of this run;
     * without one (a native artifact, or a training start that failed) the sandboxes start from the jars.
     */
    private void trainClassDataArchive(Progress progress) throws IOException, InterruptedException {
        LocalFunction f = resources
                .functionWithHandler(EMAIL)
                .orElseGet(() -> resources.functions().values().iterator().next());
        String handler = f.quarkusHandler().orElse(f.logicalId());
        long t0 = System.nanoTime();
        Optional<Path> archive = ClassDataArchive.train(
                sandboxSpec(handler, Map.of()), javaRuntime, options.workDir(), Duration.ofSeconds(60));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (archive.isPresent()) {
            javaRuntime = javaRuntime.withClassDataArchive(archive.get());
            progress.step("class-data archive of the functions trained in " + ms + " ms ("
                    + Files.size(archive.get()) / (1024 * 1024) + " MB): the sandboxes map it");
        } else if (!artifact.isNative()) {
            progress.step("no class-data archive (its training start failed after " + ms
                    + " ms): the sandboxes start from the jars");
        }
    }

    /**
     * The functions the local run drives: the consumers (an SQS event source mapping each) and the sweeper (its
     * schedule). The checkout producer's (its Function URL, the relay's stream mapping, the outbox sweep and the
     * reconciliation) are not run here yet; the scenarios send their orders to the consumers' queues.
     */
    private boolean runsLocally(LocalFunction f, String handler) {
        return SWEEPER.equals(handler) || !resources.mappingsOf(f.logicalId()).isEmpty();
    }

    /** Turns on versioning of the outbox bucket, so every email written is counted (measurement only). */
    private void instrument() {
        String outbox = environmentOf(EMAIL).get("REDRIVE_CHECKOUT_EMAIL_OUTBOX_BUCKET");
        aws.s3()
                .putBucketVersioning(
                        b -> b.bucket(outbox).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
    }

    private void startFunctions(RunOptions options, Progress progress) throws IOException, InterruptedException {
        for (LocalFunction f : resources.functions().values()) {
            String handler = f.quarkusHandler().orElse(f.logicalId());
            if (!runsLocally(f, handler)) {
                progress.step("not running " + handler + " locally: the local run does not serve its trigger yet (a "
                        + "Function URL, a DynamoDB stream, or the schedules of the checkout producer)");
                continue;
            }
            proxies.put(handler, new CopyOnWriteArrayList<>());
            // The chaos run starts up to two sweeps at once, each of them sometimes on two sandboxes at the same
            // moment (two sweepers at once), so its sweeper has four.
            int instances = SWEEPER.equals(handler)
                    ? (chaos == null ? 1 : 4)
                    : Math.min(
                            options.maxInstances(),
                            resources.mappingsOf(f.logicalId()).stream()
                                    .map(m -> m.maximumConcurrency().orElse(5))
                                    .findFirst()
                                    .orElse(1));
            Duration timeout =
                    SWEEPER.equals(handler) && chaos != null ? chaos.options().sweeperTimeout() : f.timeout();
            FunctionPool pool = new FunctionPool(
                    handler,
                    (slot, exits) -> newSandbox(handler, slot, exits),
                    timeout,
                    Duration.ofSeconds(90),
                    instances);
            pools.put(handler, pool);
            progress.step("starting " + handler + " (" + instances + " sandbox" + (instances > 1 ? "es" : "") + ")");
            pool.warm();
        }
        for (LocalEventSourceMapping m : resources.eventSourceMappings()) {
            if (!m.enabled()) {
                continue;
            }
            LocalFunction f = resources.functions().get(m.functionLogicalId());
            LocalQueue q = resources.queues().get(m.queueLogicalId());
            FunctionPool pool = pools.get(f.quarkusHandler().orElse(f.logicalId()));
            SqsEventSourcePoller poller = new SqsEventSourcePoller(
                    chaos == null ? aws.sqs() : eventSourceClient(pool.name()),
                    pool,
                    new SqsEventSourcePoller.Settings(
                            q.url(),
                            q.arn(),
                            m.batchSize(),
                            m.maximumBatchingWindow(),
                            Math.min(
                                    options.maxInstances(),
                                    m.maximumConcurrency().orElse(5)),
                            m.reportsBatchItemFailures()),
                    aws.region().id());
            if (chaos != null) {
                poller.listener(chaos.pollerListener(pool.name(), q.url()));
            }
            pollers.add(poller);
            pollerByFunction.put(pool.name(), poller);
            poller.start();
        }
        for (LocalSchedule s : resources.schedules()) {
            if (!s.enabled() || s.targetFunctionLogicalId().isEmpty()) {
                continue;
            }
            LocalFunction f =
                    resources.functions().get(s.targetFunctionLogicalId().get());
            FunctionPool pool = pools.get(f.quarkusHandler().orElse(f.logicalId()));
            if (pool == null) {
                continue; // its function is not run locally (see runsLocally)
            }
            scheduler.schedule(
                    pool,
                    s.input().isEmpty() ? "{}" : s.input(),
                    LocalScheduler.period(s.expression()),
                    options.scheduleSpeed(),
                    r -> {
                        scheduledSweeps.incrementAndGet();
                        if (!(r instanceof InvocationResult.Response)) {
                            failedSweeps.incrementAndGet();
                        }
                    });
        }
    }

    /**
     * The chaos run's event-source mapping reaches SQS through a proxy of its own, where SQS's 500s strike its receives
     * and deletes, with a client that does not retry (a failed delete leaves the batch to come back).
     */
    private SqsClient eventSourceClient(String function) throws IOException {
        AwsTrafficProxy proxy = new AwsTrafficProxy("sqs", aws.sqsEndpoint());
        eventSourceProxies.add(proxy);
        proxy.hook(chaos.eventSourceFaults(function));
        SqsClient client = aws.sqsThrough(proxy.endpoint());
        eventSourceClients.add(client);
        return client;
    }

    /** The sandbox of one slot of {@code handler}'s pool, with counting proxies of its own (and its faults). */
    private FunctionInstance newSandbox(String handler, int slot, Consumer<SandboxExit> exits) {
        Map<String, AwsTrafficProxy> mine = newProxies(handler);
        FunctionInstance sandbox = new FunctionInstance(
                sandboxSpec(handler, mine),
                slot,
                javaRuntime,
                options.workDir().resolve(handler + "-" + slot + ".log"),
                exits);
        if (chaos != null) {
            chaos.attach(handler, sandbox, mine.values());
        }
        return sandbox;
    }

    private Map<String, AwsTrafficProxy> newProxies(String handler) {
        Map<String, AwsTrafficProxy> mine = new LinkedHashMap<>();
        try {
            mine.put("dynamodb", new AwsTrafficProxy("dynamodb", aws.dynamoDbEndpoint()));
            mine.put("sqs", new AwsTrafficProxy("sqs", aws.sqsEndpoint()));
            mine.put("s3", new AwsTrafficProxy("s3", aws.s3Endpoint()));
        } catch (IOException e) {
            mine.values().forEach(AwsTrafficProxy::close);
            throw new UncheckedIOException("could not start the counting proxies of " + handler, e);
        }
        if (EMAIL.equals(handler)) {
            mine.get("s3").outage(emailOutage);
        }
        proxies.computeIfAbsent(handler, h -> new CopyOnWriteArrayList<>()).add(mine);
        return mine;
    }

    /**
     * How a sandbox of {@code handler}'s function starts: the template's function, the artifact, and an environment
     * pointing at counting proxies of its own.
     */
    public SandboxSpec sandboxSpec(String handler) {
        return sandboxSpec(handler, newProxies(handler));
    }

    private SandboxSpec sandboxSpec(String handler, Map<String, AwsTrafficProxy> mine) {
        LocalFunction f = resources
                .functionWithHandler(handler)
                .orElseThrow(() -> new IllegalStateException("the template has no function with handler " + handler));
        Map<String, String> env = new HashMap<>(f.environment());
        env.putAll(aws.environment());
        mine.forEach((service, proxy) -> {
            String upper = service.toUpperCase(Locale.ROOT);
            env.put("AWS_ENDPOINT_URL_" + upper, proxy.endpoint().toString());
            env.put("QUARKUS_" + upper + "_ENDPOINT_OVERRIDE", proxy.endpoint().toString());
        });
        env.put("QUARKUS_S3_PATH_STYLE_ACCESS", "true");
        if (chaos != null) {
            env.putAll(chaos.environmentOverrides(handler));
        }
        return new SandboxSpec(handler, f.arn(), artifact, f.memoryMb(), env);
    }

    /** The managed runtime's launch settings every JVM sandbox of this run shares (its JNI library among them). */
    public ManagedJavaRuntime javaRuntime() {
        return javaRuntime;
    }

    /** Invokes the sweeper now (as its schedule would) and returns its answer. */
    public InvocationResult sweepNow() throws InterruptedException {
        return pools.get(SWEEPER).invoke("{\"source\":\"redrive.local-run\"}");
    }

    /** Makes the email function's sandbox die on any batch holding {@code marker} (the poison scenario). */
    public void crashEmailSandboxOn(String marker) {
        pools.get(EMAIL).crashOn(payload -> payload.contains(marker));
    }

    /** Starts or ends the mail provider's outage (the email function's S3 writes answer 503). */
    public void emailProviderOutage(boolean on) {
        emailOutage = on;
        proxies.getOrDefault(EMAIL, List.of()).forEach(slot -> slot.get("s3").outage(on));
    }

    /** The chaos run's faults, journal and settings; empty unless the run injects faults. */
    public Optional<Chaos> chaos() {
        return Optional.ofNullable(chaos);
    }

    /** A function's sandbox pool (its slots, for faults aimed at them). */
    public FunctionPool pool(String handler) {
        return pools.get(handler);
    }

    /** Invokes the sweeper on two sandboxes at the same moment; both answers, in the order started. */
    public List<InvocationResult> sweepTwiceAtOnce() throws InterruptedException {
        FunctionPool sweeper = pools.get(SWEEPER);
        CountDownLatch together = new CountDownLatch(1);
        List<CompletableFuture<InvocationResult>> both = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            both.add(CompletableFuture.supplyAsync(() -> {
                try {
                    together.await();
                    return sweeper.invoke("{\"source\":\"redrive.local-run\"}");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return new InvocationResult.Timeout(Duration.ZERO);
                }
            }));
        }
        together.countDown();
        List<InvocationResult> results = new ArrayList<>();
        for (CompletableFuture<InvocationResult> f : both) {
            try {
                results.add(f.get());
            } catch (java.util.concurrent.ExecutionException e) {
                results.add(
                        new InvocationResult.FunctionError("LocalRun", String.valueOf(e.getCause()), Duration.ZERO));
            }
        }
        return results;
    }

    public LocalAws aws() {
        return aws;
    }

    public ProvisionedResources resources() {
        return resources;
    }

    public Map<String, String> environmentOf(String handler) {
        return resources
                .functionWithHandler(handler)
                .orElseThrow(() -> new IllegalStateException("the template has no function with handler " + handler))
                .environment();
    }

    /** The pace of replays as the sweeper's environment sets it (the CLI reads the same variables). */
    public ReplayPace replayPace() {
        Map<String, String> sweeper = environmentOf(SWEEPER);
        return ReplayPace.fromVariables(v -> Optional.ofNullable(sweeper.get(v)));
    }

    /** The source queue URL of a consumer. */
    public String sourceQueueUrl(String handler) {
        LocalFunction f = resources.functionWithHandler(handler).orElseThrow();
        return resources
                .queues()
                .get(resources.mappingsOf(f.logicalId()).get(0).queueLogicalId())
                .url();
    }

    public String deadLetterQueueUrl(String handler) {
        return environmentOf(handler).get("REDRIVE_DEAD_LETTERS_QUEUE_URL");
    }

    /** API calls by function, service and operation, as the counting proxies saw them. */
    public Map<String, Map<String, Long>> apiCalls() {
        Map<String, Map<String, Long>> calls = new TreeMap<>();
        proxies.forEach((handler, slots) -> {
            Map<String, Long> all = new TreeMap<>();
            slots.forEach(byService -> byService.forEach((service, proxy) ->
                    proxy.calls().forEach((op, n) -> all.merge(service + ":" + op.replace("S3:", ""), n, Long::sum))));
            calls.put(handler, all);
        });
        return calls;
    }

    /** How long AWS took to answer each operation, on average over every sandbox's proxies, in milliseconds. */
    public Map<String, Double> awsLatencyMillis() {
        Map<String, Long> nanos = new TreeMap<>();
        Map<String, Long> counts = new TreeMap<>();
        proxies.forEach((handler, slots) -> slots.forEach(byService -> byService.forEach((service, proxy) -> {
            proxy.awsNanos().forEach((op, n) -> nanos.merge(service + ":" + op.replace("S3:", ""), n, Long::sum));
            proxy.calls()
                    .forEach((op, n) ->
                            counts.merge(service + ":" + op.replace("S3:", "").replace("!", ""), n, Long::sum));
        })));
        Map<String, Double> mean = new TreeMap<>();
        nanos.forEach((op, n) -> mean.put(op, Math.round(n / 1e4 / Math.max(1, counts.getOrDefault(op, 1L))) / 100.0));
        return mean;
    }

    /** Invocations, errors, timeouts and cold starts per function; poller figures per mapping. */
    public Map<String, Map<String, Long>> runtimeFigures() {
        Map<String, Map<String, Long>> figures = new TreeMap<>();
        pools.forEach((name, pool) -> {
            Map<String, Long> f = new LinkedHashMap<>();
            f.put("invocations", pool.invocations());
            f.put("errors", pool.errors());
            f.put("timeouts", pool.timeouts());
            f.put("sandboxes", (long) pool.instances());
            f.put("processStartToFirstPollMs", pool.firstInitMillis());
            f.put("processStartToFirstResponseMs", pool.firstStartToFirstResponseMillis());
            SqsEventSourcePoller poller = pollerByFunction.get(name);
            if (poller != null) {
                f.put("messagesReceived", poller.received());
                f.put("messagesDeleted", poller.deleted());
                f.put("batches", poller.batches());
                f.put("batchesFailedWhole", poller.failedBatches());
                f.put("pollerSqsCalls", poller.sqsCalls());
                f.put("pollerSqsErrors", poller.sqsErrors());
            }
            figures.put(name, f);
        });
        figures.get(SWEEPER).put("scheduledInvocations", scheduledSweeps.get());
        figures.get(SWEEPER).put("scheduledFailures", failedSweeps.get());
        return figures;
    }

    /** Sandboxes that ended without being asked to (a crash, not an injected fault), with reason and log tail. */
    public List<SandboxExit> sandboxExits() {
        List<SandboxExit> all = new ArrayList<>();
        pools.values().forEach(p -> all.addAll(p.exits()));
        return all;
    }

    /** Throws at once when a function cannot start at all, naming its log; waits call it so none waits in vain. */
    public void failIfBroken() {
        pools.values().forEach(FunctionPool::failIfCannotStart);
    }

    /** Every call the email function made to the mail provider (its outbox's S3 PUTs), answered or refused. */
    public long mailProviderCalls() {
        return apiCalls().getOrDefault(EMAIL, Map.of()).entrySet().stream()
                .filter(e -> e.getKey().equals("s3:PUT") || e.getKey().equals("s3:PUT!"))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    public long mailProviderRefusals() {
        return proxies.getOrDefault(EMAIL, List.of()).stream()
                .mapToLong(slot -> slot.get("s3").refused())
                .sum();
    }

    @Override
    public void close() {
        scheduler.close();
        pollers.forEach(SqsEventSourcePoller::close);
        eventSourceClients.forEach(SqsClient::close);
        eventSourceProxies.forEach(AwsTrafficProxy::close);
        pools.values().forEach(FunctionPool::close);
        proxies.values().forEach(slots -> slots.forEach(m -> m.values().forEach(AwsTrafficProxy::close)));
        if (ownsAws) {
            aws.close();
        }
    }

    /** Where the function logs are. */
    public static Path logs(RunOptions options) {
        return options.workDir();
    }
}
