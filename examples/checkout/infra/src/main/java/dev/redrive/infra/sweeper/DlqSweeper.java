package dev.redrive.infra.sweeper;

import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.core.names.RedriveNames.ReplayPaceVariables;
import dev.redrive.infra.consumer.ConsumerEnvironment;
import dev.redrive.infra.consumer.IdempotentConsumer;
import dev.redrive.infra.function.EnvironmentSize;
import dev.redrive.infra.function.FunctionSpec;
import dev.redrive.infra.function.IsoDurations;
import dev.redrive.infra.function.ScheduledRun;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Function;
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
    static final String ROUTES = "REDRIVE_SWEEPER_ROUTES";

    private final Function function;
    private final Map<String, String> environment;
    private final int consumerCount;
    private final String scheduleDeadLetterQueueName;
    private final Queue scheduleDeadLetterQueue;
    private final Schedule schedule;

    public DlqSweeper(Construct scope, String id, SweeperProps props) {
        super(scope, id);
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
        this.function = props.functions().create(this, "Function", spec);
        grant(props);
        this.scheduleDeadLetterQueueName = props.prefix() + "-sweeper-schedule-dlq";
        ScheduledRun run = ScheduledRun.of(
                this,
                function,
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
        env.put(ROUTES, Stack.of(this).toJsonString(routes(props.consumers())));
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
     * One route per consumer: where its dead letters arrive and where a replay goes, as queue URLs (no look-up at
     * start) and nothing the sweeper does not read, since the routes share Lambda's 4 KB of environment.
     */
    private static List<Map<String, String>> routes(List<IdempotentConsumer> consumers) {
        return consumers.stream()
                .map(c -> {
                    Map<String, String> route = new LinkedHashMap<>();
                    route.put("consumer", c.name());
                    route.put("sourceQueueUrl", c.sourceQueue().getQueueUrl());
                    route.put("deadLetterQueueUrl", c.deadLetterQueue().getQueueUrl());
                    return route;
                })
                .toList();
    }

    /**
     * The routes grow by about 250 bytes per consumer (two queue URLs): about 14 consumers with names as long as the
     * examples' fit next to the other variables. More fail here, not at deploy. The stack calls it again with the
     * variables it adds once every function exists ({@code added}: the claim TTL's), so the check sees them all.
     */
    public void requireEnvironmentFits(Map<String, String> added) {
        Map<String, String> all = new TreeMap<>(environment);
        all.putAll(added);
        EnvironmentSize.requireWithinLimit(
                this,
                Handlers.DLQ_SWEEPER,
                all,
                ROUTES + " holds the routes of " + consumerCount + " consumers and takes up to "
                        + EnvironmentSize.upperBound(this, all.get(ROUTES)) + " bytes: use shorter consumer "
                        + "names or a shorter -c prefix, or fewer consumers per stack; more consumers than that need "
                        + "the routes moved out of the environment (an SSM parameter the sweeper reads at start), which "
                        + "this stack does not do");
    }

    private void grant(SweeperProps props) {
        for (IdempotentConsumer consumer : props.consumers()) {
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
    }

    /** The sweeper function. */
    public Function function() {
        return function;
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
}
