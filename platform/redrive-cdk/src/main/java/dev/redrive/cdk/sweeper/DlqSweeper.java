package dev.redrive.cdk.sweeper;

import dev.redrive.cdk.consumer.ConsumerEnvironment;
import dev.redrive.cdk.consumer.IIdempotentConsumer;
import dev.redrive.cdk.function.EnvironmentSize;
import dev.redrive.cdk.function.FunctionSpec;
import dev.redrive.cdk.function.IsoDurations;
import dev.redrive.cdk.function.LiveFunction;
import dev.redrive.cdk.function.ScheduledRun;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.core.names.RedriveNames.ReplayPaceVariables;
import dev.redrive.schema.RoutesDocument;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.deployment.BucketDeployment;
import software.amazon.awscdk.services.s3.deployment.Source;
import software.amazon.awscdk.services.scheduler.Schedule;
import software.amazon.awscdk.services.sqs.Queue;
import software.constructs.Construct;

/**
 * The dead-letter sweeper: a function (handler {@code dlq-sweeper}) run by an EventBridge Scheduler schedule, which
 * moves every DLQ arrival into the quarantine ledger, replays what may be replayed to its source queue, and archives
 * quarantine past retention to S3. It is the only principal that may receive from or delete in the dead-letter
 * queues, send to source queues, or touch the quarantine and control tables and the archive.
 */
public final class DlqSweeper extends Construct {

    /** The schedule's input: how the sweeper tells a scheduled run from a manual one. */
    public static final Map<String, String> SCHEDULE_INPUT = Map.of("source", "redrive.schedule");

    static final String QUARANTINE_TABLE = "REDRIVE_SWEEPER_QUARANTINE_TABLE";
    static final String CONTROL_TABLE = "REDRIVE_SWEEPER_CONTROL_TABLE";
    static final String ARCHIVE_BUCKET = "REDRIVE_SWEEPER_ARCHIVE_BUCKET";
    static final String ARCHIVE_KMS_KEY_ID = "REDRIVE_SWEEPER_ARCHIVE_KMS_KEY_ID";
    static final String RETENTION = "REDRIVE_SWEEPER_RETENTION";
    /** How long a tombstone stays in the ledger after its archiving ({@link SweeperProps#tombstoneTtl()}). */
    public static final String TOMBSTONE_TTL = "REDRIVE_SWEEPER_TOMBSTONE_TTL";

    /**
     * Days a replaced version of the routes document is kept (every deploy writes one): a year of who changed a route
     * and when; the current version never expires.
     */
    public static final int ROUTES_HISTORY_DAYS = 365;
    /** Where the routes document is: {@code s3://<routes bucket>/}{@value #ROUTES_KEY}. */
    static final String ROUTES = RoutesDocument.VARIABLE;
    /** The routes document's key in the routes bucket. */
    public static final String ROUTES_KEY = "routes.json";

    /**
     * What the sweeper does with each dead-letter queue: receive, delete what it quarantined (DeleteMessageBatch is
     * authorized as {@code sqs:DeleteMessage}), read its depth (GetQueueAttributes), resolve its URL by name. No
     * ChangeMessageVisibility: a received dead letter's visibility is set on the receive.
     */
    public static final List<String> DEAD_LETTER_ACTIONS =
            List.of("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl");

    /** What it does with each source queue: send replays (SendMessageBatch is {@code sqs:SendMessage}), find its URL. */
    public static final List<String> REPLAY_ACTIONS = List.of("sqs:SendMessage", "sqs:GetQueueUrl");

    /**
     * Its calls on the quarantine ledger's table: a record by id (GetItem), records by id (BatchGetItem), an insert
     * (PutItem) and a save (UpdateItem), batches of either in a TransactWriteItems, which IAM authorizes by these
     * item-level actions (it has none of its own). No Scan, no DeleteItem, no BatchWriteItem: it never calls them. A
     * change that adds a ConditionCheck or a Delete to a transaction must add its action here.
     */
    public static final List<String> QUARANTINE_ACTIONS =
            List.of("dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem", "dynamodb:UpdateItem");

    /** Its calls on the ledger's indexes ({@code byState}, {@code byQueue}): queries; the table itself is never queried. */
    public static final List<String> QUARANTINE_INDEX_ACTIONS = List.of("dynamodb:Query");

    /**
     * Its calls on the control table: its lease (UpdateItem, GetItem), the maintenance windows (Query, GetItem), the
     * breakers it holds (GetItem, UpdateItem), the replay paces (GetItem, PutItem), the replay statistics (UpdateItem,
     * Query). It adds and removes no window: a person does, with the CLI.
     */
    public static final List<String> CONTROL_ACTIONS =
            List.of("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query");

    /** Its calls on the claims table: a claim by key, and a received batch's notes in one BatchGetItem. */
    public static final List<String> CLAIMS_ACTIONS = List.of("dynamodb:GetItem", "dynamodb:BatchGetItem");

    /**
     * Its calls on the archive: an archive object or a payload kept aside written (PutObject) and read back
     * (GetObject). Never a delete: the archive is the audit trail, and only its lifecycle rule expires objects.
     */
    public static final List<String> ARCHIVE_ACTIONS = List.of("s3:GetObject", "s3:PutObject");

    /**
     * What it needs of the customer-managed key: a data key to send to an encrypted queue and to put an SSE-KMS
     * object, decryption to receive and to get one, and the tables' use of it. No CreateGrant, no key administration.
     */
    public static final List<String> KEY_ACTIONS =
            List.of("kms:Decrypt", "kms:DescribeKey", "kms:Encrypt", "kms:GenerateDataKey*");

    private final Function function;
    private final LiveFunction live;
    private final Bucket routesBucket;
    private final BucketDeployment routesDeployment;
    private final String routesDocument;
    private final Map<String, String> environment;
    private final int consumerCount;
    private final String scheduleDeadLetterQueueName;
    private final Queue scheduleDeadLetterQueue;
    private final Schedule schedule;
    private final String scheduleExpression;

    public DlqSweeper(Construct scope, String id, SweeperProps props) {
        super(scope, id);
        this.routesDocument = new RoutesDocument(
                        props.consumers().stream().map(SweptConsumer::route).toList())
                .toJson();
        this.routesBucket = routesBucket(props);
        FunctionSpec spec = new FunctionSpec(
                Handlers.DLQ_SWEEPER,
                props.runtime(),
                SweeperProps.TIMEOUT,
                props.runtime().defaultMemoryMb(),
                environment(props),
                "Redrive dead-letter sweeper: quarantine, replay, archive");
        this.environment = props.functions().environment(spec);
        this.consumerCount = props.consumers().size();
        requireEnvironmentFits(Map.of());
        this.live = props.functions().create(this, "Function", spec);
        this.function = live.function();
        grant(props);
        this.routesDeployment = BucketDeployment.Builder.create(this, "Routes")
                .destinationBucket(routesBucket)
                .sources(List.of(Source.data(ROUTES_KEY, routesDocument)))
                .prune(false)
                .retainOnDelete(true)
                .build();
        this.scheduleExpression = props.scheduleExpression();
        this.scheduleDeadLetterQueueName = props.prefix() + "-sweeper-schedule-dlq";
        ScheduledRun run = ScheduledRun.of(
                this,
                live.entryPoint(),
                props.key(),
                scheduleDeadLetterQueueName,
                "the Redrive dead-letter sweeper",
                props.scheduleExpression(),
                SweeperProps.TIMEOUT,
                SCHEDULE_INPUT);
        this.scheduleDeadLetterQueue = run.deadLetterQueue();
        this.schedule = run.schedule();
    }

    private Map<String, String> environment(SweeperProps props) {
        Map<String, String> env = new TreeMap<>();
        env.put(ConsumerEnvironment.CLAIMS_TABLE, props.tables().claims().getTableName());
        env.put(QUARANTINE_TABLE, props.tables().quarantine().getTableName());
        env.put(CONTROL_TABLE, props.tables().control().getTableName());
        env.put(ARCHIVE_BUCKET, props.archive().getBucketName());
        env.put(ARCHIVE_KMS_KEY_ID, props.key().getKeyArn());
        env.put(RETENTION, IsoDurations.format(props.retention()));
        env.put(TOMBSTONE_TTL, IsoDurations.format(props.tombstoneTtl()));
        env.put(ROUTES, "s3://" + routesBucket.getBucketName() + "/" + ROUTES_KEY);
        env.put(
                ReplayPaceVariables.RATE_PER_SECOND,
                Double.toString(props.replayPace().perSecond()));
        if (!props.replayPace().byLane().isEmpty()) {
            env.put(ReplayPaceVariables.LANE_RATES, props.replayPace().laneRates());
        }
        env.put(
                ReplayPaceVariables.HORIZON,
                IsoDurations.format(props.replayPace().horizon()));
        return env;
    }

    /**
     * The routes document's bucket: versioned (who changed a route, and when: every deploy writes a new version),
     * encrypted with the stack's KMS key, never public, TLS only; a replaced version expires after
     * {@value #ROUTES_HISTORY_DAYS} days. It holds thousands of routes with their schemas, where
     * Lambda's environment holds 4 KB (about 14 routes of queue URLs) and an SSM parameter 8 KB.
     */
    private Bucket routesBucket(SweeperProps props) {
        return Bucket.Builder.create(this, "RoutesBucket")
                .versioned(true)
                .encryption(BucketEncryption.KMS)
                .encryptionKey(props.key())
                .bucketKeyEnabled(true)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .enforceSsl(true)
                .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE)
                .lifecycleRules(List.of(LifecycleRule.builder()
                        .id("replaced-routes-expire")
                        .noncurrentVersionExpiration(software.amazon.awscdk.Duration.days(ROUTES_HISTORY_DAYS))
                        .abortIncompleteMultipartUploadAfter(software.amazon.awscdk.Duration.days(1))
                        .build()))
                .build();
    }

    /**
     * The routes are in S3, so the environment no longer grows with the consumers; a prefix or other variables too
     * long still fail here, not at deploy. The stack calls it again with the
     * variables it adds once every function exists ({@code added}: the claim TTL's), so the check sees them all.
     */
    public void requireEnvironmentFits(Map<String, String> added) {
        Map<String, String> all = new TreeMap<>(environment);
        all.putAll(added);
        EnvironmentSize.requireWithinLimit(
                this,
                Handlers.DLQ_SWEEPER,
                all,
                "the sweeper of " + consumerCount + " consumers (its routes are in S3, " + ROUTES + " only "
                        + "points at them): shorten the -c prefix or the other variables");
    }

    private void grant(SweeperProps props) {
        List<String> deadLetterQueues = new java.util.ArrayList<>();
        List<String> sourceQueues = new java.util.ArrayList<>();
        for (SweptConsumer swept : props.consumers()) {
            IIdempotentConsumer consumer = swept.consumer();
            deadLetterQueues.add(consumer.deadLetterQueue().getQueueArn());
            sourceQueues.add(consumer.sourceQueue().getQueueArn());
        }
        allow("DeadLetterQueues", DEAD_LETTER_ACTIONS, deadLetterQueues);
        allow("ReplaysToSourceQueues", REPLAY_ACTIONS, sourceQueues);
        String quarantine = props.tables().quarantine().getTableArn();
        allow("QuarantineLedger", QUARANTINE_ACTIONS, List.of(quarantine));
        allow("QuarantineLedgerIndexes", QUARANTINE_INDEX_ACTIONS, List.of(quarantine + "/index/*"));
        allow("ControlTable", CONTROL_ACTIONS, List.of(props.tables().control().getTableArn()));
        // Reads only: a claim by its key (the replay's idempotency check, the evidence of a dead letter), and the notes
        // a consumer keeps there for dead letters that had no room for their failure (one BatchGetItem per received
        // batch).
        allow(
                "IdempotencyLookup",
                CLAIMS_ACTIONS,
                List.of(props.tables().claims().getTableArn()));
        allow("Archive", ARCHIVE_ACTIONS, List.of(props.archive().arnForObjects("*")));
        allow("RoutesDocument", List.of("s3:GetObject"), List.of(routesBucket.arnForObjects(ROUTES_KEY)));
        allow("DataKey", KEY_ACTIONS, List.of(props.key().getKeyArn()));
    }

    private void allow(String sid, List<String> actions, List<String> resources) {
        function.addToRolePolicy(PolicyStatement.Builder.create()
                .sid(sid)
                .actions(actions)
                .resources(resources)
                .build());
    }

    /** The bucket of the routes document. */
    public Bucket routesBucket() {
        return routesBucket;
    }

    /** What writes the routes document at deploy. */
    public BucketDeployment routesDeployment() {
        return routesDeployment;
    }

    /** The routes document as written, JSON. */
    public String routesDocument() {
        return routesDocument;
    }

    /** The sweeper function (its configuration, role, log group and metrics). */
    public Function function() {
        return function;
    }

    /** The function and what its schedule invokes: the {@code live} alias on the JVM runtime. */
    public LiveFunction live() {
        return live;
    }

    /**
     * Where the scheduler puts invocations it could not deliver, and Lambda the runs that failed or went stale. Nothing
     * drains it: its alarm is on arrivals, and its messages (diagnostics only) expire after 14 days.
     */
    public Queue scheduleDeadLetterQueue() {
        return scheduleDeadLetterQueue;
    }

    /** The name of {@link #scheduleDeadLetterQueue()}. */
    public String scheduleDeadLetterQueueName() {
        return scheduleDeadLetterQueueName;
    }

    /** The schedule that runs the sweeper. */
    public Schedule schedule() {
        return schedule;
    }

    /** The schedule's expression, {@code rate(5 minutes)} or {@code cron(...)} (the sweeper's heartbeat alarm reads it). */
    public String scheduleExpression() {
        return scheduleExpression;
    }
}
