package dev.redrive.lambda;

import dev.redrive.aws.clients.EffectClients;
import dev.redrive.aws.clients.PlatformClients;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsQueueGateway;
import dev.redrive.core.backoff.RandomSource;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.EffectBreakers;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.lambda.internal.ReaderConsumers;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.client.builder.SdkClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Builds the consumer a plain-Java Lambda handler runs ({@link SqsConsumerHandler}): settings from the environment,
 * the claim-TTL check, Redrive's own SDK clients, the claims, backoff, dead letters, circuit breaker and EMF metrics.
 * Call it once per sandbox, in the handler's constructor (Lambda's init phase):
 *
 * <pre>{@code
 * public class Receipts extends SqsConsumerHandler {
 *     public Receipts() {
 *         super(Redrive.fromEnvironment()
 *                 .guardedBy("mail-provider")
 *                 .externalEffect("receipts", JsonMessages.keyAt("/orderId"), (order, ctx) -> mailer.send(order, ctx)));
 *     }
 * }
 * }</pre>
 *
 * <p>A consumer's name is part of every claim key: never rename one in production.
 */
public final class Redrive {

    private final RedriveSettings settings;
    private final DynamoDbClient dynamoDb;
    private final SqsClient sqs;
    private final S3Client s3;
    private Clock clock = Clock.systemUTC();
    private EmfOutput emf = EmfOutput.stdout();
    private RandomSource random;
    private String dependency;

    private Redrive(RedriveSettings settings, DynamoDbClient dynamoDb, SqsClient sqs, S3Client s3) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.dynamoDb = Objects.requireNonNull(dynamoDb, "dynamoDb");
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.random = ConsumerRuntime.randomSource(settings.backoff());
    }

    /**
     * From this process' environment: the {@code REDRIVE_*} settings ({@link RedriveSettings}), and DynamoDB, SQS and
     * S3 clients with the SDK's region, credentials and endpoint resolution ({@code AWS_REGION},
     * {@code AWS_ENDPOINT_URL_*}) and Redrive's retry rule. Refuses an unsafe claim TTL ({@link ClaimTtlCheck}).
     */
    public static Redrive fromEnvironment() {
        RedriveSettings settings = RedriveSettings.fromEnvironment();
        return with(
                settings,
                platformClient(DynamoDbClient.builder(), settings),
                platformClient(SqsClient.builder(), settings),
                platformClient(S3Client.builder(), settings));
    }

    /** With these settings and clients (tests, local runs, or clients built your own way). */
    public static Redrive with(RedriveSettings settings, DynamoDbClient dynamoDb, SqsClient sqs, S3Client s3) {
        ClaimTtlCheck.check(settings.claims());
        return new Redrive(settings, dynamoDb, sqs, s3);
    }

    /**
     * A client for Redrive's own tables, queues and buckets: the URL-connection HTTP client and the retry rule of
     * {@link PlatformClients} ({@code REDRIVE_AWS_MAX_ATTEMPTS}).
     */
    public static <B extends AwsSyncClientBuilder<B, C> & SdkClientBuilder<B, C>, C> C platformClient(
            B builder, RedriveSettings settings) {
        return builder.httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(
                        o -> PlatformClients.configure(o, settings.aws().maxAttempts()))
                .build();
    }

    /**
     * A client for an effect's dependency: at most one retry, for a connection blip, with the backstop timeouts of
     * {@code REDRIVE_EFFECTS_*} ({@link EffectClients}); pass
     * {@code EffectCallTimeouts.within(context, dependency, client).next("call")} to each request.
     */
    public <B extends AwsSyncClientBuilder<B, C> & SdkClientBuilder<B, C>, C> C effectClient(B builder) {
        return EffectClients.configure(builder, settings.effects()).build();
    }

    /** The settings read. */
    public RedriveSettings settings() {
        return settings;
    }

    /** Redrive's DynamoDB client (the claims' table, and a transactional effect's). */
    public DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    /** The clock of claims and backoff; the system's UTC clock unless set (tests). */
    public Redrive clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /** The jitter's random source; secure (or seeded by {@code REDRIVE_BACKOFF_SEED}) unless set (tests). */
    public Redrive random(RandomSource random) {
        this.random = Objects.requireNonNull(random, "random");
        return this;
    }

    /** Where EMF metrics go; standard output (CloudWatch Logs) unless set (tests). */
    public Redrive metrics(EmfOutput emf) {
        this.emf = Objects.requireNonNull(emf, "emf");
        return this;
    }

    /**
     * The dependency the consumers built next call, whose circuit breaker (shared by every sandbox, settings
     * {@code REDRIVE_BREAKERS_<DEPENDENCY>_*}) guards their effect; a dependency's messages it refuses are deferred.
     */
    public Redrive guardedBy(String dependency) {
        this.dependency = Objects.requireNonNull(dependency, "dependency");
        return this;
    }

    /** A consumer whose effect is a call elsewhere, reading its messages with {@code reader}. */
    public <E> RedriveConsumer externalEffect(String name, MessageReader<E> reader, ExternalEffect<E> effect) {
        return consumer(new ReaderConsumers.External<>(name, reader, effect));
    }

    /** A consumer whose effect is DynamoDB writes that commit with its claim, in the claims' table's account. */
    public <E> RedriveConsumer transactionalEffect(
            String name, MessageReader<E> reader, TransactionalEffect<E> effect) {
        return consumer(new ReaderConsumers.Transactional<>(name, reader, effect));
    }

    /**
     * Any consumer of the core's (its own parsing and classifier). A transactional one must write
     * {@code TransactWriteItem}s: its writes commit with the claim in DynamoDB.
     */
    public RedriveConsumer consumer(IdempotentConsumer<?> consumer) {
        ConsumerMetrics metrics = new ConsumerMetrics(emf);
        EffectBreakers breakers = ConsumerRuntime.effectBreakers(
                dependency == null ? Map.of() : Map.of(consumer.name(), dependency),
                dynamoDb,
                settings,
                metrics.breakers());
        QueueDirectory directory = ConsumerRuntime.queueDirectory(sqs, settings);
        SqsQueueGateway queues = ConsumerRuntime.queueGateway(
                sqs, directory, settings.claimChecks().settings(), s3, dynamoDb, settings, clock);
        BatchProcessor batches = ConsumerRuntime.batchProcessor(
                ConsumerRuntime.claimStore(dynamoDb, settings),
                random,
                clock,
                queues,
                new ConsumerEvents(metrics),
                breakers,
                Optional.of(s3),
                settings);
        return new RedriveConsumer(consumer, batches, settings.batch().deadlineMargin(), metrics);
    }
}
