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
    /** Where the routes document is: {@code s3://<routes bucket>/}{@value #ROUTES_KEY}. */
    static final String ROUTES = RoutesDocument.VARIABLE;
    /** The routes document's key in the routes bucket. */
    public static final String ROUTES_KEY = "routes.json";

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
     * encrypted with the stack's KMS key, never public, TLS only. It holds thousands of routes with their schemas, where
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
        for (SweptConsumer swept : props.consumers()) {
            IIdempotentConsumer consumer = swept.consumer();
            consumer.deadLetterQueue().grantConsumeMessages(function);
            consumer.sourceQueue().grantSendMessages(function);
        }
        props.tables().quarantine().grantReadWriteData(function);
        props.tables().control().grantReadWriteData(function);
        // Reads only: a claim by its key (the replay's idempotency check, the evidence of a dead letter), and the notes
        // a
        // consumer keeps there for dead letters that had no room for their failure (one BatchGetItem per received
        // batch).
        function.addToRolePolicy(PolicyStatement.Builder.create()
                .sid("IdempotencyLookup")
                .actions(List.of("dynamodb:GetItem", "dynamodb:BatchGetItem"))
                .resources(List.of(props.tables().claims().getTableArn()))
                .build());
        props.key().grantDecrypt(function);
        props.archive().grantReadWrite(function);
        routesBucket.grantRead(function, ROUTES_KEY); // s3:GetObject on the document, kms:Decrypt by its key
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
