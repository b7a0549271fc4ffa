package dev.redrive.cdk.consumer;

import dev.redrive.cdk.function.FunctionSpec;
import dev.redrive.cdk.function.LiveFunction;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.amazon.awscdk.services.sqs.RedriveAllowPolicy;
import software.amazon.awscdk.services.sqs.RedrivePermission;
import software.constructs.Construct;

/**
 * An SQS-triggered idempotent consumer: a source queue and its dead-letter queue, the function (one handler of the
 * one artifact), and the event source mapping between them with partial batch responses.
 *
 * <ul>
 *   <li>Source queue {@code <prefix>-<name>}: redrive policy to the DLQ after {@code maxReceiveCount} receives,
 *       visibility timeout at least 6 x the function timeout + the batching window, retention 4 days by default.</li>
 *   <li>DLQ {@code <prefix>-<name>-dlq}: 14 days of retention (longer than the source's), a redrive-allow policy
 *       that admits only its own source queue.</li>
 *   <li>Both encrypted with the platform's customer-managed key and TLS-only.</li>
 *   <li>The function may consume its own queue, send to its own DLQ, and get/put/update/condition-check claims;
 *       nothing else. Grants for the consumer's own side effects are added by the caller.</li>
 * </ul>
 */
public final class IdempotentConsumer extends Construct implements IIdempotentConsumer {

    /** The claims-table actions a consumer needs: claim, complete, read a claim back. No scan, no delete. */
    public static final List<String> CLAIMS_ACTIONS =
            List.of("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:ConditionCheckItem");

    /** Appended to the source queue's name to name its dead-letter queue. */
    public static final String DEAD_LETTER_SUFFIX = "-dlq";

    /**
     * The largest message the queues take: SQS's limit, 1 MiB (raised from 256 KiB in August 2025). A dead letter is its
     * message plus a small metadata attribute, so its queue takes the same; larger payloads come by claim check.
     */
    public static final int MAX_MESSAGE_BYTES = 1024 * 1024;

    private final IdempotentConsumerProps props;
    private final String sourceQueueName;
    private final Queue deadLetterQueue;
    private final Queue sourceQueue;
    private final Function function;
    private final LiveFunction live;

    public IdempotentConsumer(Construct scope, String id, ConsumerPlatform platform, IdempotentConsumerProps props) {
        super(scope, id);
        this.props = props;
        String sourceName = platform.prefix() + "-" + props.name();
        this.sourceQueueName = sourceName;
        this.deadLetterQueue = Queue.Builder.create(this, "DeadLetterQueue")
                .queueName(sourceName + DEAD_LETTER_SUFFIX)
                .retentionPeriod(seconds(props.deadLetterRetention()))
                .maxMessageSizeBytes(MAX_MESSAGE_BYTES)
                .encryption(QueueEncryption.KMS)
                .encryptionMasterKey(platform.key())
                .enforceSsl(true)
                .redriveAllowPolicy(RedriveAllowPolicy.builder()
                        .redrivePermission(RedrivePermission.BY_QUEUE)
                        .sourceQueues(List.of(sourceQueueByArn(sourceName)))
                        .build())
                .build();
        this.sourceQueue = Queue.Builder.create(this, "Queue")
                .queueName(sourceName)
                .visibilityTimeout(seconds(props.visibilityTimeout()))
                .retentionPeriod(seconds(props.sourceRetention()))
                .maxMessageSizeBytes(MAX_MESSAGE_BYTES)
                .encryption(QueueEncryption.KMS)
                .encryptionMasterKey(platform.key())
                .enforceSsl(true)
                .deadLetterQueue(DeadLetterQueue.builder()
                        .queue(deadLetterQueue)
                        .maxReceiveCount(props.maxReceiveCount())
                        .build())
                .build();
        this.live = platform.functions()
                .create(
                        this,
                        "Function",
                        new FunctionSpec(
                                props.handler(),
                                props.runtime(),
                                props.timeout(),
                                props.effectiveMemoryMb(),
                                environment(platform),
                                "Redrive idempotent consumer " + props.name() + " of " + sourceName,
                                props.reservedConcurrency()));
        this.function = live.function();
        grant(platform);
        // On the alias of the SnapStart version (JVM), never $LATEST; consuming the queue is granted to its role.
        live.entryPoint()
                .addEventSource(ConsumerWiring.eventSource(
                        sourceQueue, props.batchSize(), props.maxBatchingWindow(), props.maxConcurrency()));
    }

    /**
     * The source queue as an ARN built from its explicit name: the DLQ's redrive-allow policy names its source, and
     * the source's redrive policy names the DLQ, so a reference both ways would be a dependency cycle.
     */
    private IQueue sourceQueueByArn(String sourceName) {
        String arn = Stack.of(this)
                .formatArn(ArnComponents.builder()
                        .service("sqs")
                        .resource(sourceName)
                        .arnFormat(ArnFormat.NO_RESOURCE_NAME)
                        .build());
        return Queue.fromQueueArn(this, "SourceQueueArn", arn);
    }

    private Map<String, String> environment(ConsumerPlatform platform) {
        Map<String, String> env = new TreeMap<>(props.environment());
        env.putAll(ConsumerWiring.variables(
                platform.claimsTable(),
                deadLetterQueue,
                props.backoff(),
                props.batchConcurrency(),
                props.maxReceiveCount(),
                props.buildVersion()));
        return env;
    }

    private void grant(ConsumerPlatform platform) {
        // Consuming the source queue is granted by the event source mapping (addEventSource).
        deadLetterQueue.grantSendMessages(function);
        function.addToRolePolicy(ConsumerWiring.claimsStatement(platform.claimsTable()));
        platform.key().grantEncryptDecrypt(function);
    }

    private static software.amazon.awscdk.Duration seconds(Duration duration) {
        return software.amazon.awscdk.Duration.seconds(duration.toSeconds());
    }

    /** The settings this consumer was made with. */
    public IdempotentConsumerProps props() {
        return props;
    }

    /** The consumer's name ({@code confirmation-email}). */
    @Override
    public String name() {
        return props.name();
    }

    /** The source queue's name, {@code <prefix>-<name>} (a plain string, not a token). */
    @Override
    public String sourceQueueName() {
        return sourceQueueName;
    }

    /** The dead-letter queue's name, {@code <prefix>-<name>-dlq}. */
    @Override
    public String deadLetterQueueName() {
        return sourceQueueName + DEAD_LETTER_SUFFIX;
    }

    /** The queue the function consumes. */
    @Override
    public Queue sourceQueue() {
        return sourceQueue;
    }

    /** The source queue's dead-letter queue. */
    @Override
    public Queue deadLetterQueue() {
        return deadLetterQueue;
    }

    @Override
    public Duration sourceRetention() {
        return props.sourceRetention();
    }

    @Override
    public Duration deadLetterRetention() {
        return props.deadLetterRetention();
    }

    /** The consumer function (its configuration, role, log group and metrics). */
    @Override
    public Function function() {
        return function;
    }

    /** The function and what its queue's mapping invokes: the {@code live} alias on the JVM runtime. */
    public LiveFunction live() {
        return live;
    }
}
