package dev.redrive.infra.checkout;

import dev.redrive.cdk.consumer.IdempotentConsumer;
import dev.redrive.cdk.function.FunctionFactory;
import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.cdk.function.FunctionSpec;
import dev.redrive.cdk.function.LiveFunction;
import dev.redrive.cdk.function.ScheduledRun;
import dev.redrive.cdk.storage.Tables;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.infra.OrderedMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.FilterCriteria;
import software.amazon.awscdk.services.lambda.FilterRule;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.FunctionUrl;
import software.amazon.awscdk.services.lambda.FunctionUrlAuthType;
import software.amazon.awscdk.services.lambda.FunctionUrlOptions;
import software.amazon.awscdk.services.lambda.StartingPosition;
import software.amazon.awscdk.services.lambda.eventsources.DynamoEventSource;
import software.amazon.awscdk.services.lambda.eventsources.SqsDlq;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * The producer side of the checkout example: {@code POST /orders} and its transactional outbox.
 * <ul>
 *   <li>the orders table ({@link #ordersTable}: attempts, stock, reservations, orders, outbox; its stream);</li>
 *   <li>the checkout function (handler {@value Handlers#CHECKOUT}) behind a Function URL with IAM auth, with a
 *       reserved concurrency (by default) that is also its ceiling, so a burst of orders cannot take the concurrency
 *       the consumers need;</li>
 *   <li>the relay (handler {@value Handlers#OUTBOX_RELAY}) on the table's stream, filtered to outbox INSERTs: batches
 *       of 10, {@code ReportBatchItemFailures}, bisect on error, 5 retries, then the on-failure queue; it sends each
 *       event to every consumer's source queue directly (no emulator here serves SNS to SQS, and one SendMessage per
 *       subscriber keeps one code path from the table to the queues, locally and on AWS);</li>
 *   <li>the outbox sweep ({@value Handlers#OUTBOX_SWEEPER}) and the ghost-transaction reconciliation
 *       ({@value Handlers#CHECKOUT_RECONCILIATION}), each on its own schedule ({@link ScheduledRun}).</li>
 * </ul>
 * Each function may touch only the orders table (and, for the relay and the sweep, the subscriber queues); the
 * actions are the ones its code calls. On the JVM runtime every trigger (the URL, the stream's mapping, the schedules)
 * invokes the function's {@code live} alias, its published SnapStart version ({@link LiveFunction}).
 */
public final class CheckoutProducer extends Construct {

    static final String ORDERS_TABLE = "REDRIVE_CHECKOUT_ORDERS_TABLE";
    static final String PAYMENTS_URL = "REDRIVE_CHECKOUT_PAYMENTS_URL";
    static final String SUBSCRIBER_QUEUES = "REDRIVE_CHECKOUT_OUTBOX_SUBSCRIBER_QUEUES";
    /** How long an outbox event may stay unpublished before the sweep republishes it (written even at the default). */
    public static final String REPUBLISH_AFTER = "REDRIVE_CHECKOUT_OUTBOX_REPUBLISH_AFTER";
    /** How long after its lease an abandoned checkout is voided (written even at the default). */
    public static final String RECONCILIATION_GRACE = "REDRIVE_CHECKOUT_RECONCILIATION_GRACE";

    /**
     * How long the reconciliation holds an attempt it voids: the void's call, the release and the finish fit in it, and
     * a run that died part way leaves the attempt to the next run once it and the grace are over (written even at the
     * default).
     */
    public static final String RECONCILIATION_LEASE = "REDRIVE_CHECKOUT_RECONCILIATION_LEASE";

    static final Duration REPUBLISH_AFTER_DEFAULT = Duration.ofMinutes(5);
    static final Duration RECONCILIATION_GRACE_DEFAULT = Duration.ofMinutes(15);
    static final Duration RECONCILIATION_LEASE_DEFAULT = Duration.ofMinutes(1);
    /** The checkout function's timeout: the longest an invocation holds its attempt before its lease margin. */
    static final Duration CHECKOUT_TIMEOUT = Duration.ofSeconds(15);
    /** The functions' lease margin ({@code redrive.checkout.lease-margin}; the template leaves it at its default). */
    static final Duration LEASE_MARGIN_DEFAULT = Duration.ofSeconds(5);

    /** The checkout's own calls: an attempt, the stock read, the reservation and placing transactions, reads. */
    static final List<String> CHECKOUT_ACTIONS = List.of(
            "dynamodb:GetItem",
            "dynamodb:BatchGetItem",
            "dynamodb:Query",
            "dynamodb:PutItem",
            "dynamodb:UpdateItem",
            "dynamodb:ConditionCheckItem");

    /** What the schedules' runs are told. */
    static final Map<String, String> SCHEDULE_INPUT = Map.of("source", "redrive.schedule");

    /** The orders table's sparse GSI of outbox items not yet published. */
    public static final String UNPUBLISHED_INDEX = "byUnpublished";
    /** The orders table's sparse GSI of unfinished checkout attempts. */
    public static final String OPEN_ATTEMPT_INDEX = "byOpenAttempt";

    /**
     * The checkout's orders table, in {@code scope}, by the same rules as the others: {@code pk}+{@code sk}, its stream
     * of new images (the outbox relay), GSIs {@value #UNPUBLISHED_INDEX} ({@code unpublished}, {@code createdAt}) and
     * {@value #OPEN_ATTEMPT_INDEX} ({@code openAttempt}, {@code leaseUntil}); their partition keys are shards
     * ({@link IndexShardSettings}), so their writes spread over as many index partitions.
     */
    static Table ordersTable(Construct scope, IKey key) {
        Table orders = Tables.table(scope, "OrdersTable", key, true).stream(
                        software.amazon.awscdk.services.dynamodb.StreamViewType.NEW_IMAGE)
                .timeToLiveAttribute(CheckoutNames.OrderRetention.ATTRIBUTE)
                .build();
        orders.addGlobalSecondaryIndex(sparse(UNPUBLISHED_INDEX, "unpublished", "createdAt"));
        orders.addGlobalSecondaryIndex(sparse(OPEN_ATTEMPT_INDEX, "openAttempt", "leaseUntil"));
        return orders;
    }

    private static GlobalSecondaryIndexProps sparse(String name, String marker, String sortedBy) {
        return GlobalSecondaryIndexProps.builder()
                .indexName(name)
                .partitionKey(Attribute.builder()
                        .name(marker)
                        .type(AttributeType.STRING)
                        .build())
                .sortKey(Attribute.builder()
                        .name(sortedBy)
                        .type(AttributeType.NUMBER)
                        .build())
                .projectionType(ProjectionType.ALL)
                .build();
    }

    private final Table orders;
    private final Function checkout;
    private final LiveFunction liveCheckout;
    private final FunctionUrl url;
    private final Function relay;
    private final LiveFunction liveRelay;
    private final Queue relayFailures;
    private final String relayFailuresName;
    private final String prefix;
    private final Function outboxSweeper;
    private final ScheduledRun outboxSchedule;
    private final Function reconciliation;
    private final ScheduledRun reconciliationSchedule;

    /**
     * @param prefix             names of queues
     * @param subscribers        the consumers OrderPlaced goes to (each one's source queue)
     * @param paymentProviderUrl the payment provider's base URL; absent: the checkout answers 503
     * @param scheduleExpression how often the outbox sweep and the reconciliation run
     * @param checkoutReservedConcurrency the checkout's reserved concurrency (its share, and its ceiling); empty: none
     * @param indexShards        the shards of the orders table's sparse indexes, told to every function here
     * @param retention          how long finished attempts and published outbox events are kept (the table's TTL)
     */
    public CheckoutProducer(
            Construct scope,
            String id,
            String prefix,
            FunctionRuntime runtime,
            FunctionFactory functions,
            IKey key,
            List<IdempotentConsumer> subscribers,
            Optional<String> paymentProviderUrl,
            String scheduleExpression,
            Optional<Integer> checkoutReservedConcurrency,
            IndexShardSettings indexShards,
            OrderRetentionSettings retention) {
        super(scope, id);
        this.prefix = prefix;
        this.orders = ordersTable(this, key);
        String table = orders.getTableName();
        String queues =
                subscribers.stream().map(c -> c.sourceQueue().getQueueUrl()).collect(Collectors.joining(","));

        Map<String, String> checkoutEnv = new TreeMap<>(Map.of(ORDERS_TABLE, table));
        checkoutEnv.putAll(indexShards.environment());
        checkoutEnv.putAll(retention.attemptEnvironment());
        paymentProviderUrl.ifPresent(u -> checkoutEnv.put(PAYMENTS_URL, u));
        this.liveCheckout = functions.create(
                this,
                "Checkout",
                new FunctionSpec(
                        CheckoutNames.CHECKOUT,
                        runtime,
                        CHECKOUT_TIMEOUT,
                        runtime.defaultMemoryMb(),
                        checkoutEnv,
                        "Redrive checkout: POST /orders, reservation, payment, order and outbox in one transaction",
                        checkoutReservedConcurrency));
        this.checkout = liveCheckout.function();
        allow(checkout, "OrdersTable", CHECKOUT_ACTIONS, List.of(orders.getTableArn()));
        key.grantEncryptDecrypt(checkout);
        this.url = liveCheckout
                .entryPoint()
                .addFunctionUrl(FunctionUrlOptions.builder()
                        .authType(FunctionUrlAuthType.AWS_IAM)
                        .build());

        this.relayFailuresName = prefix + "-outbox-relay-failures";
        this.relayFailures = Queue.Builder.create(this, "RelayFailures")
                .queueName(relayFailuresName)
                .retentionPeriod(software.amazon.awscdk.Duration.days(14))
                .encryption(QueueEncryption.KMS)
                .encryptionMasterKey(key)
                .enforceSsl(true)
                .build();
        Map<String, String> relayEnv = new TreeMap<>(Map.of(ORDERS_TABLE, table, SUBSCRIBER_QUEUES, queues));
        relayEnv.putAll(indexShards.environment());
        relayEnv.putAll(retention.eventEnvironment());
        Map<String, String> outboxSweepEnv = new TreeMap<>(relayEnv);
        outboxSweepEnv.put(REPUBLISH_AFTER, REPUBLISH_AFTER_DEFAULT.toString());
        this.liveRelay = functions.create(
                this,
                "Relay",
                new FunctionSpec(
                        CheckoutNames.OUTBOX_RELAY,
                        runtime,
                        Duration.ofSeconds(30),
                        runtime.defaultMemoryMb(),
                        relayEnv,
                        "Redrive outbox relay: publishes OrderPlaced from the orders table's stream"));
        this.relay = liveRelay.function();
        allow(relay, "MarkPublished", List.of("dynamodb:UpdateItem"), List.of(orders.getTableArn()));
        subscribers.forEach(c -> c.sourceQueue().grantSendMessages(relay));
        key.grantEncryptDecrypt(relay);
        liveRelay
                .entryPoint()
                .addEventSource(DynamoEventSource.Builder.create(orders)
                        .startingPosition(StartingPosition.TRIM_HORIZON)
                        .batchSize(10)
                        .bisectBatchOnError(true)
                        .retryAttempts(5)
                        .reportBatchItemFailures(true)
                        .parallelizationFactor(1)
                        .onFailure(new SqsDlq(relayFailures))
                        .filters(List.of(FilterCriteria.filter(OrderedMap.<String, Object>of(
                                "eventName",
                                FilterRule.isEqual("INSERT"),
                                "dynamodb",
                                Map.of("Keys", Map.of("sk", Map.of("S", FilterRule.beginsWith("outbox#"))))))))
                        .build());

        LiveFunction liveOutboxSweeper = functions.create(
                this,
                "OutboxSweeper",
                new FunctionSpec(
                        CheckoutNames.OUTBOX_SWEEPER,
                        runtime,
                        Duration.ofSeconds(60),
                        runtime.defaultMemoryMb(),
                        outboxSweepEnv,
                        "Redrive outbox sweep: republishes what the relay missed"));
        this.outboxSweeper = liveOutboxSweeper.function();
        allow(
                outboxSweeper,
                "Unpublished",
                List.of("dynamodb:Query", "dynamodb:UpdateItem"),
                List.of(orders.getTableArn(), orders.getTableArn() + "/index/" + UNPUBLISHED_INDEX));
        subscribers.forEach(c -> c.sourceQueue().grantSendMessages(outboxSweeper));
        key.grantEncryptDecrypt(outboxSweeper);
        Construct outboxScope = new Construct(this, "OutboxSchedule");
        this.outboxSchedule = ScheduledRun.of(
                outboxScope,
                liveOutboxSweeper.entryPoint(),
                key,
                outboxScheduleDeadLetterQueueName(),
                "the Redrive outbox sweep",
                scheduleExpression,
                Duration.ofSeconds(60),
                SCHEDULE_INPUT);

        Map<String, String> reconciliationEnv = new TreeMap<>(Map.of(
                ORDERS_TABLE,
                table,
                RECONCILIATION_GRACE,
                RECONCILIATION_GRACE_DEFAULT.toString(),
                RECONCILIATION_LEASE,
                RECONCILIATION_LEASE_DEFAULT.toString()));
        reconciliationEnv.putAll(indexShards.environment());
        reconciliationEnv.putAll(retention.attemptEnvironment());
        paymentProviderUrl.ifPresent(u -> reconciliationEnv.put(PAYMENTS_URL, u));
        LiveFunction liveReconciliation = functions.create(
                this,
                "Reconciliation",
                new FunctionSpec(
                        CheckoutNames.CHECKOUT_RECONCILIATION,
                        runtime,
                        Duration.ofSeconds(120),
                        runtime.defaultMemoryMb(),
                        reconciliationEnv,
                        "Redrive checkout reconciliation: voids authorizations whose order was never written"));
        this.reconciliation = liveReconciliation.function();
        allow(
                reconciliation,
                "AbandonedCheckouts",
                List.of("dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:ConditionCheckItem"),
                List.of(orders.getTableArn(), orders.getTableArn() + "/index/" + OPEN_ATTEMPT_INDEX));
        key.grantEncryptDecrypt(reconciliation);
        Construct reconciliationScope = new Construct(this, "ReconciliationSchedule");
        this.reconciliationSchedule = ScheduledRun.of(
                reconciliationScope,
                liveReconciliation.entryPoint(),
                key,
                reconciliationScheduleDeadLetterQueueName(),
                "the Redrive checkout reconciliation",
                scheduleExpression,
                Duration.ofSeconds(120),
                SCHEDULE_INPUT);
    }

    private static void allow(Function f, String sid, List<String> actions, List<String> resources) {
        f.addToRolePolicy(PolicyStatement.Builder.create()
                .sid(sid)
                .actions(actions)
                .resources(resources)
                .build());
    }

    public Table orders() {
        return orders;
    }

    public Function checkout() {
        return checkout;
    }

    /** The checkout's Function URL: on its {@code live} alias (JVM), so callers are granted on the alias. */
    public FunctionUrl url() {
        return url;
    }

    /** The checkout function and what its URL invokes. */
    public LiveFunction liveCheckout() {
        return liveCheckout;
    }

    /**
     * Lets {@code caller} call the checkout's Function URL (IAM auth): {@code lambda:InvokeFunctionUrl} with the
     * condition {@code lambda:FunctionUrlAuthType = AWS_IAM}, and {@code lambda:InvokeFunction} with
     * {@code lambda:InvokedViaFunctionUrl = true}. A function URL made since October 2025 needs both (Lambda's "Control
     * access to Lambda function URLs"); with one alone every call is refused 403. A principal of this stack gets them in
     * its identity policy; another account or an imported role gets them in the function's resource policy, and still
     * needs them in its own identity policy (and signs each request with SigV4 for the service {@code lambda}).
     */
    public void grantInvokeUrl(IGrantable caller) {
        // the URL is the alias's; CDK grants both actions, each with its condition
        liveCheckout.entryPoint().grantInvokeUrl(caller);
    }

    public Function relay() {
        return relay;
    }

    /** Where stream batches the relay could not publish after its retries are recorded. */
    public Queue relayFailures() {
        return relayFailures;
    }

    public String relayFailuresName() {
        return relayFailuresName;
    }

    public String outboxScheduleDeadLetterQueueName() {
        return prefix + "-outbox-schedule-dlq";
    }

    public String reconciliationScheduleDeadLetterQueueName() {
        return prefix + "-reconciliation-schedule-dlq";
    }

    public ScheduledRun outboxSchedule() {
        return outboxSchedule;
    }

    public ScheduledRun reconciliationSchedule() {
        return reconciliationSchedule;
    }

    /** The scheduled outbox sweep. */
    public Function outboxSweeper() {
        return outboxSweeper;
    }

    /** The scheduled checkout reconciliation. */
    public Function reconciliation() {
        return reconciliation;
    }

    /** The producer's functions. */
    public List<Function> functions() {
        return List.of(checkout, relay, outboxSweeper, reconciliation);
    }
}
