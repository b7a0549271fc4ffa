package dev.redrive.testing.localaws;

import dev.redrive.testing.SuitePhases;
import dev.redrive.testing.localaws.internal.EmbeddedSqs;
import dev.redrive.testing.localaws.internal.MotoServer;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Local AWS for tests and for running Redrive on one machine: SQS, DynamoDB and S3 endpoints on 127.0.0.1.
 *
 * <ul>
 *   <li>SQS is ElasticMQ embedded in this JVM; DynamoDB and S3 are a moto server child process behind a
 *       serializing launcher (see {@link MotoServer}). Both bind free ports chosen at start.</li>
 *   <li>When {@code AWS_ENDPOINT_URL} (or {@code AWS_ENDPOINT_URL_SQS}, {@code _DYNAMODB}, {@code _S3}) is set, that
 *       endpoint is used for its services and nothing is started for them: a LocalStack, for instance.</li>
 *   <li>{@link #shared()} starts one instance per JVM (one per test run) and stops it when the JVM exits;
 *       {@link #reset()} empties it between tests in milliseconds, without a restart.</li>
 * </ul>
 */
public final class LocalAws implements AutoCloseable {

    public static final String REGION = "us-east-1";
    /** The account id in the ARNs of the local services. */
    public static final String ACCOUNT_ID = EmbeddedSqs.ACCOUNT_ID;

    public static final String ACCESS_KEY = "redrive-local";
    public static final String SECRET_KEY = "redrive-local-secret";

    private static LocalAws shared;

    private final URI sqsEndpoint;
    private final URI dynamoDbEndpoint;
    private final URI s3Endpoint;
    private final EmbeddedSqs embeddedSqs;
    private final MotoServer moto;
    private volatile SqsClient sqs;
    private volatile DynamoDbClient dynamoDb;
    private volatile S3Client s3;

    private LocalAws(URI sqsEndpoint, URI dynamoDbEndpoint, URI s3Endpoint, EmbeddedSqs embeddedSqs, MotoServer moto) {
        this.sqsEndpoint = sqsEndpoint;
        this.dynamoDbEndpoint = dynamoDbEndpoint;
        this.s3Endpoint = s3Endpoint;
        this.embeddedSqs = embeddedSqs;
        this.moto = moto;
    }

    /**
     * The instance shared by everything in this JVM, started on first use and stopped when the JVM exits. Fails if a
     * child emulator has died since (with its log), rather than letting tests time out against a dead port.
     */
    public static synchronized LocalAws shared() {
        if (shared == null) {
            shared = start(EndpointOverrides.fromEnvironment());
            LocalAws instance = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(instance::close, "redrive-local-aws-shutdown"));
        }
        shared.checkAlive();
        return shared;
    }

    /**
     * Runs {@code work} on a new daemon thread named {@code name}, beside the caller's. java.util.logging is initialized
     * on the caller's thread first: with JBoss LogManager as its manager (a Quarkus test's class path), a JVM whose
     * first log call comes from two threads at once can deadlock in class initialization, one thread initializing
     * java.util.logging (moto's HTTP client) while the other initializes JBoss's LogContext through SLF4J
     * (ElasticMQ's Pekko), each waiting for the other. A whole test module hung on it once (LocalAwsLifecycleTest's
     * child JVM); {@code LoggingBesideAnotherThreadTest} races the two.
     */
    static <T> CompletableFuture<T> besideThisThread(String name, Supplier<T> work) {
        java.util.logging.LogManager.getLogManager();
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        result.complete(work.get());
                    } catch (RuntimeException | Error e) {
                        result.completeExceptionally(e);
                    }
                },
                name);
        thread.setDaemon(true);
        thread.start();
        return result;
    }

    /**
     * Starts a new instance; the caller closes it. moto (a Python child that spends most of its start importing) starts
     * on its own thread while ElasticMQ starts in this one, so a test JVM waits for the slower of the two, not both.
     */
    public static LocalAws start(EndpointOverrides overrides) {
        CompletableFuture<MotoServer> motoStart = overrides.needsMoto()
                ? besideThisThread("redrive-moto-start", () -> SuitePhases.timed("moto-start", MotoServer::start))
                : CompletableFuture.completedFuture(null);
        EmbeddedSqs sqs = null;
        try {
            if (overrides.sqs().isEmpty()) {
                sqs = SuitePhases.timed("elasticmq-start", () -> EmbeddedSqs.start(REGION));
            }
        } catch (RuntimeException e) {
            motoStart.thenAccept(m -> {
                if (m != null) {
                    m.close();
                }
            });
            throw e;
        }
        MotoServer moto;
        try {
            moto = motoStart.join();
        } catch (CompletionException e) {
            if (sqs != null) {
                sqs.close();
            }
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        EmbeddedSqs q = sqs;
        MotoServer m = moto;
        URI sqsUri = overrides.sqs().orElseGet(() -> q.endpoint());
        URI ddbUri = overrides.dynamoDb().orElseGet(() -> m.endpoint());
        URI s3Uri = overrides.s3().orElseGet(() -> m.endpoint());
        return new LocalAws(sqsUri, ddbUri, s3Uri, sqs, moto);
    }

    public URI sqsEndpoint() {
        return sqsEndpoint;
    }

    public URI dynamoDbEndpoint() {
        return dynamoDbEndpoint;
    }

    public URI s3Endpoint() {
        return s3Endpoint;
    }

    public Region region() {
        return Region.of(REGION);
    }

    public AwsCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
    }

    /** Whether this instance started emulators of its own (false when every endpoint came from the environment). */
    public boolean startedEmulators() {
        return embeddedSqs != null || moto != null;
    }

    /** The moto child's process id, when one was started. */
    public Optional<Long> motoPid() {
        return Optional.ofNullable(moto).map(MotoServer::pid);
    }

    /**
     * How the moto child rolls back a cancelled TransactWriteItems, when one was started: {@code rollback=undo-log
     * moto=5.2.1} (only the items the transaction touched) or {@code rollback=deep-copy moto=...} (moto's own copy of
     * every table, O(table size) per transaction; the launcher warns on stderr when it had to keep it).
     */
    public Optional<String> motoTransactions() {
        return Optional.ofNullable(moto).map(MotoServer::transactions);
    }

    public SqsClient sqs() {
        if (sqs == null) {
            synchronized (this) {
                if (sqs == null) {
                    sqs = sqsClient(sqsEndpoint, clientConfig());
                }
            }
        }
        return sqs;
    }

    /**
     * A new SQS client for {@code endpoint} (a proxy in front of this SQS, say), with these credentials and region and
     * no SDK retries: whoever calls through it retries in its own way. The caller closes it.
     */
    public SqsClient sqsThrough(URI endpoint) {
        return sqsClient(
                endpoint,
                clientConfig().toBuilder()
                        .retryStrategy(AwsRetryStrategy.doNotRetry())
                        .build());
    }

    private SqsClient sqsClient(URI endpoint, ClientOverrideConfiguration config) {
        return SqsClient.builder()
                .endpointOverride(endpoint)
                .region(region())
                .credentialsProvider(credentials())
                .httpClient(http())
                .overrideConfiguration(config)
                .build();
    }

    public DynamoDbClient dynamoDb() {
        if (dynamoDb == null) {
            synchronized (this) {
                if (dynamoDb == null) {
                    dynamoDb = DynamoDbClient.builder()
                            .endpointOverride(dynamoDbEndpoint)
                            .region(region())
                            .credentialsProvider(credentials())
                            .httpClient(http())
                            .overrideConfiguration(clientConfig())
                            .build();
                }
            }
        }
        return dynamoDb;
    }

    /** A DynamoDB Streams client on the local DynamoDB (moto serves the streams of its tables). */
    public software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient dynamoDbStreams() {
        return software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient.builder()
                .endpointOverride(dynamoDbEndpoint)
                .region(region())
                .credentialsProvider(credentials())
                .httpClient(http())
                .overrideConfiguration(clientConfig())
                .build();
    }

    public S3Client s3() {
        if (s3 == null) {
            synchronized (this) {
                if (s3 == null) {
                    s3 = S3Client.builder()
                            .endpointOverride(s3Endpoint)
                            .region(region())
                            .credentialsProvider(credentials())
                            .forcePathStyle(true)
                            .httpClient(http())
                            .overrideConfiguration(clientConfig())
                            .build();
                }
            }
        }
        return s3;
    }

    /**
     * Environment variables that point an AWS SDK or CLI (in a child process, say a packaged function) at these
     * endpoints.
     */
    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("AWS_REGION", REGION);
        env.put("AWS_DEFAULT_REGION", REGION);
        env.put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
        env.put("AWS_SECRET_ACCESS_KEY", SECRET_KEY);
        env.put("AWS_ENDPOINT_URL_SQS", sqsEndpoint.toString());
        env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDbEndpoint.toString());
        env.put("AWS_ENDPOINT_URL_S3", s3Endpoint.toString());
        return env;
    }

    /** Configuration for the quarkiverse Amazon services clients of a Quarkus application. */
    public Map<String, String> quarkusConfig() {
        Map<String, String> config = new LinkedHashMap<>();
        Map<String, URI> services = Map.of("sqs", sqsEndpoint, "dynamodb", dynamoDbEndpoint, "s3", s3Endpoint);
        services.forEach((service, endpoint) -> {
            config.put("quarkus." + service + ".endpoint-override", endpoint.toString());
            config.put("quarkus." + service + ".aws.region", REGION);
            config.put("quarkus." + service + ".aws.credentials.type", "static");
            config.put("quarkus." + service + ".aws.credentials.static-provider.access-key-id", ACCESS_KEY);
            config.put("quarkus." + service + ".aws.credentials.static-provider.secret-access-key", SECRET_KEY);
            config.put("quarkus." + service + ".devservices.enabled", "false");
        });
        config.put("quarkus.s3.path-style-access", "true");
        return config;
    }

    /**
     * Empties every service: all queues, tables and buckets go. On moto one request resets everything; elsewhere
     * (ElasticMQ, LocalStack) the resources are deleted through the API.
     */
    public void reset() {
        checkAlive();
        for (String url : sqs().listQueuesPaginator().queueUrls()) {
            sqs().deleteQueue(b -> b.queueUrl(url));
        }
        if (moto != null && dynamoDbEndpoint.equals(moto.endpoint()) && s3Endpoint.equals(moto.endpoint())) {
            moto.reset();
            return;
        }
        for (String table : dynamoDb().listTablesPaginator().tableNames()) {
            dynamoDb().deleteTable(b -> b.tableName(table));
        }
        for (Bucket bucket : s3().listBuckets().buckets()) {
            emptyBucket(bucket.name());
            s3().deleteBucket(b -> b.bucket(bucket.name()));
        }
    }

    private void emptyBucket(String bucket) {
        for (var page : s3().listObjectsV2Paginator(b -> b.bucket(bucket))) {
            List<ObjectIdentifier> ids = new ArrayList<>();
            for (S3Object o : page.contents()) {
                ids.add(ObjectIdentifier.builder().key(o.key()).build());
            }
            if (!ids.isEmpty()) {
                s3().deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(ids)));
            }
        }
    }

    /** Fails with the emulator's log if a child emulator has died. */
    public void checkAlive() {
        if (moto != null && !moto.alive()) {
            throw new LocalAwsException(
                    "the moto server (pid " + moto.pid() + ") has exited; its log ends with:\n" + moto.logTail());
        }
    }

    public String describe() {
        return "SQS " + sqsEndpoint + (embeddedSqs != null ? " (ElasticMQ, embedded)" : " (from the environment)")
                + ", DynamoDB " + dynamoDbEndpoint + ", S3 " + s3Endpoint
                + (moto != null
                        ? " (moto, pid " + moto.pid() + ", transactions " + moto.transactions() + ", routing "
                                + moto.routing() + ", serving " + moto.serving() + ")"
                        : " (from the environment)");
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {sqs, dynamoDb, s3}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // closing anyway
                }
            }
        }
        if (embeddedSqs != null) {
            embeddedSqs.close();
        }
        if (moto != null) {
            moto.close();
        }
    }

    private static SdkHttpClient http() {
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(60))
                .build();
    }

    private static ClientOverrideConfiguration clientConfig() {
        return ClientOverrideConfiguration.builder()
                .apiCallTimeout(Duration.ofSeconds(90))
                .build();
    }
}
