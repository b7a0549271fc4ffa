package dev.redrive.localrun;

import dev.redrive.checkout.CheckoutNames;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.localrun.chaos.CallClassifier;
import dev.redrive.localrun.chaos.Chaos;
import dev.redrive.localrun.chaos.ProducerCrashes;
import dev.redrive.localrun.eventsource.AwsTrafficProxy;
import dev.redrive.localrun.eventsource.DynamoDbStreamPoller;
import dev.redrive.localrun.eventsource.EventFilter;
import dev.redrive.localrun.eventsource.FunctionUrlServer;
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
import dev.redrive.localstack.PaymentProviderSimulator;
import dev.redrive.localstack.provision.LocalEventSourceMapping;
import dev.redrive.localstack.provision.LocalFunction;
import dev.redrive.localstack.provision.LocalFunctionUrl;
import dev.redrive.localstack.provision.LocalQueue;
import dev.redrive.localstack.provision.LocalSchedule;
import dev.redrive.localstack.provision.LocalStreamMapping;
import dev.redrive.localstack.provision.ProvisionedResources;
import dev.redrive.localstack.provision.TemplateProvisioner;
import dev.redrive.testing.localaws.EndpointOverrides;
import dev.redrive.testing.localaws.LocalAws;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
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
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The whole system on this machine: local AWS provisioned from the synthesized template, each function of the
 * template running as sandboxes of the packaged artifact, an SQS poller per SQS event source mapping, a stream poller
 * per DynamoDB stream mapping (the outbox relay's), an HTTP server per Function URL (the checkout's) and a scheduler
 * per schedule — all configured from the template — and a payment-provider simulator the checkout and its
 * reconciliation are pointed at. Every function reaches AWS through its own counting proxies, so its API calls can be
 * reported; the email function's S3 proxy can play an outage of the mail provider.
 *
 * <p>Time is compressed by the run's schedule speed: the schedules fire that much faster, and the durations they act
 * on (the outbox's republish-after, the reconciliation's grace) are that much shorter than the template's.
 */
public final class LocalSystem implements AutoCloseable {

    public static final String EMAIL = CheckoutNames.CONFIRMATION_EMAIL;
    public static final String REVENUE = CheckoutNames.REVENUE_ANALYTICS;
    public static final String SWEEPER = Handlers.DLQ_SWEEPER;
    public static final String CHECKOUT = CheckoutNames.CHECKOUT;
    public static final String RELAY = CheckoutNames.OUTBOX_RELAY;
    public static final String OUTBOX_SWEEPER = CheckoutNames.OUTBOX_SWEEPER;
    public static final String RECONCILIATION = CheckoutNames.CHECKOUT_RECONCILIATION;

    /**
     * The template's durations the local run compresses by its schedule speed (see the class comment), each with the
     * least it is compressed to: a second, and for the reconciliation's lease five (its provider call, release and
     * finish fit in it).
     */
    static final Map<String, Duration> COMPRESSED_DURATIONS = Map.of(
            "REDRIVE_CHECKOUT_OUTBOX_REPUBLISH_AFTER", Duration.ofSeconds(1),
            "REDRIVE_CHECKOUT_RECONCILIATION_GRACE", Duration.ofSeconds(1),
            "REDRIVE_CHECKOUT_RECONCILIATION_LEASE", Duration.ofSeconds(5));

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
    /**
     * The producer's crash points aimed at chosen checkouts, and refused marks; the chaos run draws its own
     * ({@link Chaos#producerCrashes}).
     */
    private final ProducerCrashes producerCrashes = new ProducerCrashes();

    private final List<SqsEventSourcePoller> pollers = new ArrayList<>();
    private final Map<String, SqsEventSourcePoller> pollerByFunction = new HashMap<>();
    private final List<AwsTrafficProxy> eventSourceProxies = new ArrayList<>();
    private final List<SqsClient> eventSourceClients = new ArrayList<>();
    private final List<DynamoDbStreamPoller> streamPollers = new ArrayList<>();
    private final Map<String, DynamoDbStreamPoller> streamPollerByFunction = new HashMap<>();
    private final Map<String, FunctionUrlServer> urls = new LinkedHashMap<>();
    private DynamoDbStreamsClient streams;
    private final PaymentProviderSimulator payments;
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
        this.chaos =
                options.chaos().map(c -> new Chaos(c, classifier(), aws.sqs())).orElse(null);
        this.payments = PaymentProviderSimulator.start();
        if (chaos != null) {
            payments.faultPolicy(chaos.providerFaults(), Chaos.PROVIDER_HANG);
        }
    }

    /** Starts local AWS, provisions the template, starts the functions, pollers and schedules. */
    public static LocalSystem start(RunOptions options, Progress progress) throws IOException, InterruptedException {
        if (!Files.isRegularFile(options.template())) {
            throw new IllegalStateException("no synthesized template at " + options.template()
                    + ": bin/redrive-local synthesizes it; or run  ./mvnw -pl examples/checkout/infra package");
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
        return start(options, progress, aws, ownsAws, true);
    }

    /**
     * Provisions the template on {@code aws} and prepares its functions (the artifact, the runtime, the class-data
     * archive if the options ask for one) without starting any sandbox, poller, Function URL or schedule: for
     * benchmarks that start sandboxes of their own ({@link #sandboxSpec(String)}).
     */
    public static LocalSystem provisioned(RunOptions options, Progress progress, LocalAws aws, boolean ownsAws)
            throws IOException, InterruptedException {
        return start(options, progress, aws, ownsAws, false);
    }

    private static LocalSystem start(
            RunOptions options, Progress progress, LocalAws aws, boolean ownsAws, boolean startFunctions)
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
            if (startFunctions) {
                system.startFunctions(options, progress);
            }
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
        synchronized (TRAINED) {
            Path known = TRAINED.get(artifact.classpath());
            if (known != null && Files.isRegularFile(known)) {
                mapCopyOf(known, "trained by an earlier run of this JVM", progress);
                return;
            }
            Optional<Path> shared = sharedClassDataArchives();
            if (shared.isEmpty()) {
                trainOwnClassDataArchive(progress);
            } else {
                trainOrCopyShared(shared.get(), progress);
            }
            javaRuntime.classDataArchive().ifPresent(a -> TRAINED.put(artifact.classpath(), a));
        }
    }

    /** Maps a copy of {@code archive} under this run's own directory, as a trained one would be. */
    private void mapCopyOf(Path archive, String whose, Progress progress) throws IOException {
        // No run maps another run's file, which that run may delete.
        Path copy = Files.createTempDirectory(options.workDir(), "class-data-")
                .toAbsolutePath()
                .normalize()
                .resolve(archive.getFileName());
        Files.copy(archive, copy);
        javaRuntime = javaRuntime.withClassDataArchive(copy);
        progress.step("class-data archive of the functions " + whose + ", copied: the sandboxes map it");
    }

    /**
     * The build-wide folder where JVMs share the archives they train, from the system property {@value
     * #SHARED_CLASS_DATA_PROPERTY} (tooling/localrun's tests set it: six test JVMs start the system side by side, and
     * each would otherwise train its own); empty when it is not set, as for bin/redrive-local.
     */
    private static Optional<Path> sharedClassDataArchives() {
        String dir = System.getProperty(SHARED_CLASS_DATA_PROPERTY, "").trim();
        return dir.isEmpty()
                ? Optional.empty()
                : Optional.of(Path.of(dir).toAbsolutePath().normalize());
    }

    static final String SHARED_CLASS_DATA_PROPERTY = "redrive.localrun.shared-class-data";

    /**
     * The archive of this artifact from the shared folder, or trained here and left there for the others: the first JVM
     * to ask trains it and the others copy it ({@link SharedByInputs}). An archive is keyed by the artifact's class path
     * and the size and time of each of its files: a rebuilt jar is another archive.
     */
    private void trainOrCopyShared(Path dir, Progress progress) throws IOException, InterruptedException {
        Optional<SharedByInputs.Entry> shared =
                SharedByInputs.get(dir, classpathIdentity(artifact.classpath()), fresh -> {
                    trainOwnClassDataArchive(progress);
                    Optional<Path> trained = javaRuntime.classDataArchive();
                    if (trained.isPresent()) {
                        Files.copy(trained.get(), fresh);
                    }
                    return trained.isPresent();
                });
        if (shared.isPresent() && !shared.get().madeHere()) {
            mapCopyOf(shared.get().path(), "trained by another JVM of this build", progress);
        }
    }

    private static String classpathIdentity(String classpath) throws IOException {
        StringBuilder identity = new StringBuilder();
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            identity.append(entry);
            if (Files.isRegularFile(p)) {
                identity.append(' ').append(Files.size(p)).append(' ').append(Files.getLastModifiedTime(p));
            }
            identity.append('\n');
        }
        return identity.toString();
    }

    /**
     * The class-data archives trained in this JVM, by the class path of the artifact they were trained on: a test JVM
     * that starts the system several times trains once (a run of bin/redrive-local starts it once), and each later run
     * maps a copy under its own directory. Each stays where its run wrote it and is never replaced (see {@link
     * ClassDataArchive}); one that was deleted is trained again.
     */
    private static final Map<String, Path> TRAINED = new HashMap<>();

    private void trainOwnClassDataArchive(Progress progress) throws IOException, InterruptedException {
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
     * How many sandboxes a function gets: a consumer as many as its mapping's maximum concurrency (within the run's
     * limit); the checkout as many as the run's limit allows up to 4; the relay one (a parallelization factor of 1 on
     * one shard); the sweeper one (four in the chaos run, which starts up to two sweeps at once, each sometimes on two
     * sandboxes at the same moment); the other scheduled functions one.
     */
    private int instances(LocalFunction f, String handler) {
        if (SWEEPER.equals(handler)) {
            return chaos == null ? 1 : 4;
        }
        if (resources.urlOf(f.logicalId()).isPresent()) {
            return Math.max(1, Math.min(options.maxInstances(), 4));
        }
        return Math.min(
                options.maxInstances(),
                resources.mappingsOf(f.logicalId()).stream()
                        .map(m -> m.maximumConcurrency().orElse(5))
                        .findFirst()
                        .orElse(1));
    }

    /** Whether a function takes traffic as soon as the run starts (so its first sandbox is started ahead of it). */
    private boolean warmed(LocalFunction f, String handler) {
        return SWEEPER.equals(handler)
                || !resources.mappingsOf(f.logicalId()).isEmpty()
                || !resources.streamMappingsOf(f.logicalId()).isEmpty()
                || resources.urlOf(f.logicalId()).isPresent();
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
            proxies.put(handler, new CopyOnWriteArrayList<>());
            int instances = instances(f, handler);
            Duration timeout =
                    SWEEPER.equals(handler) && chaos != null ? chaos.options().sweeperTimeout() : f.timeout();
            FunctionPool pool = new FunctionPool(
                    handler,
                    (slot, exits) -> newSandbox(handler, slot, exits),
                    timeout,
                    Duration.ofSeconds(90),
                    instances);
            pools.put(handler, pool);
            if (warmed(f, handler)) {
                progress.step(
                        "starting " + handler + " (" + instances + " sandbox" + (instances > 1 ? "es" : "") + ")");
                pool.warm();
            }
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
        streams = aws.dynamoDbStreams();
        for (LocalStreamMapping m : resources.streamMappings()) {
            if (!m.enabled()) {
                continue;
            }
            LocalFunction f = resources.functions().get(m.functionLogicalId());
            FunctionPool pool = pools.get(f.quarkusHandler().orElse(f.logicalId()));
            DynamoDbStreamPoller poller = new DynamoDbStreamPoller(
                    streams,
                    aws.sqs(),
                    pool::invoke,
                    pool.name(),
                    new DynamoDbStreamPoller.Settings(
                            m.streamArn(),
                            f.arn(),
                            m.batchSize(),
                            EventFilter.of(m.filterPatterns()),
                            m.bisectOnFunctionError(),
                            m.maximumRetryAttempts(),
                            m.onFailureQueueLogicalId()
                                    .map(q -> resources.queues().get(q).url()),
                            m.reportsBatchItemFailures(),
                            m.startingPosition().equals("TRIM_HORIZON")),
                    aws.region().id());
            streamPollers.add(poller);
            streamPollerByFunction.put(pool.name(), poller);
            poller.start();
            progress.step("the stream of "
                    + resources.tables().get(m.tableLogicalId()).name() + " feeds " + pool.name());
        }
        for (LocalFunctionUrl u : resources.functionUrls()) {
            LocalFunction f = resources.functions().get(u.functionLogicalId());
            FunctionPool pool = pools.get(f.quarkusHandler().orElse(f.logicalId()));
            FunctionUrlServer server = FunctionUrlServer.start(
                    pool::invoke,
                    u.requiresSignature(),
                    pool.instances() * 2,
                    aws.region().id(),
                    LocalAws.ACCOUNT_ID);
            urls.put(pool.name(), server);
            progress.step(pool.name() + "'s Function URL (" + u.authType() + ") is served at " + server.url());
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
        } else if (CHECKOUT.equals(handler) || RELAY.equals(handler) || RECONCILIATION.equals(handler)) {
            mine.get("dynamodb").hook(producerCrashes.hook(handler, () -> sandbox));
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
        if (env.containsKey("REDRIVE_CHECKOUT_ORDERS_TABLE")
                && (CHECKOUT.equals(handler) || RECONCILIATION.equals(handler))) {
            env.put("REDRIVE_CHECKOUT_PAYMENTS_URL", payments.url().toString());
        }
        COMPRESSED_DURATIONS.forEach((d, least) -> {
            if (env.containsKey(d)) {
                env.put(
                        d,
                        compressed(Duration.parse(env.get(d)), options.scheduleSpeed(), least)
                                .toString());
            }
        });
        if (chaos != null) {
            env.putAll(chaos.environmentOverrides(handler));
        }
        return new SandboxSpec(handler, f.arn(), artifact, f.memoryMb(), env);
    }

    /** {@code d} at the run's speed: divided by it, and at least {@code least}. */
    static Duration compressed(Duration d, double speed, Duration least) {
        long millis = (long) (d.toMillis() / Math.max(1.0, speed));
        return Duration.ofMillis(Math.max(least.toMillis(), millis));
    }

    /** The managed runtime's launch settings every JVM sandbox of this run shares (its JNI library among them). */
    public ManagedJavaRuntime javaRuntime() {
        return javaRuntime;
    }

    /** Invokes the sweeper now (as its schedule would) and returns its answer. */
    public InvocationResult sweepNow() throws InterruptedException {
        return pools.get(SWEEPER).invoke("{\"source\":\"redrive.local-run\"}");
    }

    /** Invokes {@code handler} now, as its schedule would, and returns its answer. */
    public InvocationResult invokeNow(String handler) throws InterruptedException {
        return pools.get(handler).invoke("{\"source\":\"redrive.local-run\"}");
    }

    /**
     * Holds {@code handler}'s schedule (its firings are skipped) or releases it; a hold returns once the scheduled
     * invocation running at the time, if any, has ended.
     */
    public void holdSchedule(String handler, boolean hold) throws InterruptedException {
        scheduler.hold(handler, hold);
    }

    /** The base URL of {@code handler}'s Function URL, served on loopback. */
    public URI functionUrl(String handler) {
        FunctionUrlServer server = urls.get(handler);
        if (server == null) {
            throw new IllegalStateException(handler + " has no Function URL in the template");
        }
        return server.url();
    }

    /** The payment provider the checkout and its reconciliation call (a simulator that keeps every charge). */
    public PaymentProviderSimulator paymentProvider() {
        return payments;
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

    /**
     * The producer's faults: its sandboxes killed at a named step for the checkouts armed with it, and DynamoDB
     * refusing the relay's marks (so the events it publishes meanwhile are left to the outbox sweep). Not in the chaos
     * run, whose faults are its own.
     */
    public ProducerCrashes producerCrashes() {
        return producerCrashes;
    }

    /** Outbox events the relay's stream mapping delivered to the relay and the relay took (published). */
    public long relayed() {
        DynamoDbStreamPoller poller = streamPollerByFunction.get(RELAY);
        return poller == null ? 0 : poller.delivered();
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
            Map<String, Long> cold = pool.coldStarts(); // a sandbox replaced after a timeout starts cold again
            f.put("sandboxProcesses", cold.get("processes"));
            f.put("medianFirstInvocationMs", cold.get("medianFirstInvocationMs"));
            f.put("slowestFirstInvocationMs", cold.get("slowestFirstInvocationMs"));
            DynamoDbStreamPoller stream = streamPollerByFunction.get(name);
            if (stream != null) {
                f.putAll(stream.figures());
            }
            FunctionUrlServer url = urls.get(name);
            if (url != null) {
                f.putAll(url.figures());
            }
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
        urls.values().forEach(FunctionUrlServer::close);
        streamPollers.forEach(DynamoDbStreamPoller::close);
        if (streams != null) {
            streams.close();
        }
        pollers.forEach(SqsEventSourcePoller::close);
        eventSourceClients.forEach(SqsClient::close);
        eventSourceProxies.forEach(AwsTrafficProxy::close);
        pools.values().forEach(FunctionPool::close);
        proxies.values().forEach(slots -> slots.forEach(m -> m.values().forEach(AwsTrafficProxy::close)));
        payments.close();
        if (chaos != null) {
            chaos.close();
        }
        if (ownsAws) {
            aws.close();
        }
    }

    /** Where the function logs are. */
    public static Path logs(RunOptions options) {
        return options.workDir();
    }

    /** The folder of this run's function logs ({@link #logs(RunOptions)}). */
    public Path logs() {
        return logs(options);
    }
}
