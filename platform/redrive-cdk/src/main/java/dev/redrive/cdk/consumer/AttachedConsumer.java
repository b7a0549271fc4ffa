package dev.redrive.cdk.consumer;

import dev.redrive.cdk.function.IsoDurations;
import dev.redrive.core.consumer.VisibilityRule;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.CfnFunction;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Version;
import software.amazon.awscdk.services.sqs.CfnQueue;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.constructs.Construct;

/**
 * Makes a team's existing SQS queue and Lambda function, of any runtime, an idempotent Redrive consumer: the event
 * source mapping with partial batch responses, the grants (claims, the dead-letter queue), and the function's
 * {@code REDRIVE_*} environment. Nothing is created but the mapping and the policy statements; the queue, its
 * dead-letter queue and the function stay the team's.
 *
 * <p>Before it attaches anything it checks the rules Redrive depends on, and refuses, naming the setting:
 *
 * <ul>
 *   <li>the queue has a redrive policy to a dead-letter queue;</li>
 *   <li>its visibility timeout is at least {@value VisibilityRule#FACTOR} x the function timeout + the batching
 *       window (AWS's advice for an SQS event source: otherwise a slow invocation's messages are delivered again while
 *       it still runs);</li>
 *   <li>the dead-letter queue keeps messages longer than the queue (a message's age counts from its first enqueue:
 *       a shorter retention deletes dead letters on arrival);</li>
 *   <li>a message that keeps failing TRANSIENT stays out of the dead-letter queue for at least the minimum retry
 *       window ({@link RetryWindow});</li>
 *   <li>a function with SnapStart is given as its alias or version, not unqualified: the mapping would invoke
 *       {@code $LATEST}, which SnapStart never applies to;</li>
 *   <li>a function's reserved concurrency, if it has one, covers the mapping's maximum concurrency (else the extra
 *       invocations are throttled and their batches count receives towards the dead-letter queue).</li>
 * </ul>
 *
 * <p>A queue or function defined in the same app is read; an imported one's settings are declared in the
 * {@link AttachedConsumerProps} and must agree with what can be read. An imported function's environment cannot be
 * set: the construct then warns and lists the variables in {@link #environment()} for the team to set. An alias or a
 * version of a function defined in the app counts as that function (its environment, timeout and role).
 */
public final class AttachedConsumer extends Construct implements IIdempotentConsumer {

    /** SQS's default visibility timeout, for a queue that sets none. */
    static final Duration SQS_DEFAULT_VISIBILITY = Duration.ofSeconds(30);
    /** SQS's default retention, for a queue that sets none. */
    static final Duration SQS_DEFAULT_RETENTION = Duration.ofDays(4);
    /** Lambda's default timeout, for a function that sets none. */
    static final Duration LAMBDA_DEFAULT_TIMEOUT = Duration.ofSeconds(3);

    private final AttachedConsumerProps props;
    private final IQueue deadLetterQueue;
    private final String sourceQueueName;
    private final String deadLetterQueueName;
    private final int maxReceiveCount;
    private final Duration functionTimeout;
    private final Duration visibilityTimeout;
    private final Duration sourceRetention;
    private final Duration deadLetterRetention;
    private final Map<String, String> environment;

    public AttachedConsumer(Construct scope, String id, AttachedConsumerProps props) {
        super(scope, id);
        this.props = props;
        String name = props.name();
        Optional<DeadLetterQueue> policy =
                props.queue() instanceof Queue q ? Optional.ofNullable(q.getDeadLetterQueue()) : Optional.empty();
        this.deadLetterQueue = settle(
                name,
                "the dead-letter queue",
                props.deadLetterQueue(),
                policy.map(DeadLetterQueue::getQueue),
                "the queue has no redrive policy here: give it one (deadLetterQueue on the Queue), or, for an imported"
                        + " queue, declare it with deadLetterQueue(queue, maxReceiveCount)");
        this.maxReceiveCount = settle(
                name,
                "maxReceiveCount",
                props.maxReceiveCount(),
                policy.map(p -> p.getMaxReceiveCount().intValue()),
                "declare it with deadLetterQueue(queue, maxReceiveCount)");
        Optional<CfnQueue> source = l1(props.queue());
        Optional<CfnQueue> deadLetter = l1(deadLetterQueue);
        this.sourceQueueName = queueName(name, "queue", props.queue(), source);
        this.deadLetterQueueName = queueName(name, "dead-letter queue", deadLetterQueue, deadLetter);
        this.functionTimeout = settle(
                name,
                "the function timeout",
                props.functionTimeout(),
                ownFunction(props.function())
                        .map(f -> f.getTimeout() == null ? LAMBDA_DEFAULT_TIMEOUT : seconds(f.getTimeout())),
                "the function is imported: declare functionTimeout(...)");
        this.visibilityTimeout = settle(
                name,
                "the visibility timeout",
                props.visibilityTimeout(),
                source.map(q -> secondsOr(q.getVisibilityTimeout(), SQS_DEFAULT_VISIBILITY)),
                "the queue is imported: declare visibilityTimeout(...)");
        this.sourceRetention = settle(
                name,
                "the queue's retention",
                props.sourceRetention(),
                source.map(q -> secondsOr(q.getMessageRetentionPeriod(), SQS_DEFAULT_RETENTION)),
                "the queue is imported: declare retention(source, deadLetter)");
        this.deadLetterRetention = settle(
                name,
                "the dead-letter queue's retention",
                props.deadLetterRetention(),
                deadLetter.map(q -> secondsOr(q.getMessageRetentionPeriod(), SQS_DEFAULT_RETENTION)),
                "the dead-letter queue is imported: declare retention(source, deadLetter)");
        check();
        this.environment = variables();
        attach();
    }

    private void check() {
        String name = props.name();
        Duration window = props.maxBatchingWindow();
        if (!VisibilityRule.holds(visibilityTimeout, functionTimeout, window)) {
            throw new IllegalArgumentException("visibility timeout " + IsoDurations.format(visibilityTimeout)
                    + " of the queue " + sourceQueueName + " (consumer " + name + ") is shorter than "
                    + VisibilityRule.FACTOR + " x the function timeout " + IsoDurations.format(functionTimeout)
                    + " + the batching window " + IsoDurations.format(window) + " = "
                    + IsoDurations.format(VisibilityRule.minimum(functionTimeout, window)) + ": a slow invocation's "
                    + "messages would be delivered again while it still runs. Raise the queue's visibilityTimeout or"
                    + " shorten the function timeout");
        }
        if (deadLetterRetention.compareTo(sourceRetention) <= 0) {
            throw new IllegalArgumentException("the dead-letter queue " + deadLetterQueueName + " keeps messages "
                    + IsoDurations.format(deadLetterRetention) + ", not longer than its source " + sourceQueueName
                    + " (" + IsoDurations.format(sourceRetention) + "): a message's age counts from its first enqueue,"
                    + " so dead letters would be deleted on arrival. Give the dead-letter queue a longer "
                    + "retentionPeriod (14 days, the SQS maximum, is usual)");
        }
        if (props.function() instanceof Function unqualified && snapStart(unqualified)) {
            throw new IllegalArgumentException("the function of consumer " + name + " runs SnapStart on its published "
                    + "versions, but it is given unqualified, so its queue's mapping would invoke $LATEST, which "
                    + "SnapStart never applies to: give the consumer its alias (Alias.Builder...version("
                    + "function.getCurrentVersion())) instead");
        }
        ownFunction(props.function())
                .flatMap(AttachedConsumer::reservedConcurrency)
                .ifPresent(reserved -> {
                    if (reserved < props.maxConcurrency()) {
                        throw new IllegalArgumentException("the function of consumer " + name
                                + " has a reserved concurrency of "
                                + reserved + ", below the maxConcurrency " + props.maxConcurrency() + " of its queue's "
                                + "mapping: the extra invocations would be throttled, and each throttled batch returns to the "
                                + "queue with its receive count raised, on its way to the DLQ. Reserve at least "
                                + props.maxConcurrency() + " or lower maxConcurrency");
                    }
                });
        if (!props.minimumRetryWindow().isZero()) {
            List<String> problems = RetryWindow.problems(
                    new ConsumerTuning(functionTimeout, maxReceiveCount, props.backoff(), props.minimumRetryWindow()));
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("consumer " + name + ": " + String.join("; ", problems)
                        + " (the maxReceiveCount is the queue's redrive policy's; a demo stack may accept any window"
                        + " with minimumRetryWindow(Duration.ZERO))");
            }
        }
    }

    private Map<String, String> variables() {
        return ConsumerWiring.variables(
                props.claimsTable(),
                deadLetterQueue,
                props.backoff(),
                props.batchConcurrency(),
                maxReceiveCount,
                props.buildVersion());
    }

    private void attach() {
        IFunction function = props.function();
        function.addEventSource(ConsumerWiring.eventSource(
                props.queue(), props.batchSize(), props.maxBatchingWindow(), props.maxConcurrency()));
        if (function.getRole() == null) {
            Annotations.of(this)
                    .addWarningV2(
                            "redrive:importedFunctionRole",
                            "the function of consumer " + props.name() + " is imported without its role, so nothing "
                                    + "can be granted to it here: grant it "
                                    + String.join(", ", IdempotentConsumer.CLAIMS_ACTIONS)
                                    + " on the claims table (and kms:Decrypt, kms:Encrypt, kms:GenerateDataKey* on its "
                                    + "key, if it has one), sqs:SendMessage on " + deadLetterQueueName
                                    + ", or import it with Function.fromFunctionAttributes(..., role)");
        } else {
            deadLetterQueue.grantSendMessages(function);
            function.addToRolePolicy(ConsumerWiring.claimsStatement(props.claimsTable()));
            if (props.claimsTable().getEncryptionKey() != null) {
                props.claimsTable().getEncryptionKey().grantEncryptDecrypt(function);
            }
        }
        Optional<Function> own = ownFunction(function);
        if (own.isPresent()) {
            environment.forEach(own.get()::addEnvironment);
        } else {
            Annotations.of(this)
                    .addWarningV2(
                            "redrive:importedFunctionEnvironment",
                            "the function of consumer " + props.name() + " is imported, so its environment cannot be "
                                    + "set here: set " + String.join(", ", environment.keySet())
                                    + " on it yourself (AttachedConsumer.environment() has their values)");
        }
    }

    /** The function defined in this app that {@code function} is, or is an alias or version of. */
    static Optional<Function> ownFunction(IFunction function) {
        if (function instanceof Function own) {
            return Optional.of(own);
        }
        if (function instanceof Alias alias) {
            return ownFunction(alias.getVersion().getLambda());
        }
        if (function instanceof Version version) {
            return ownFunction(version.getLambda());
        }
        return Optional.empty();
    }

    private static boolean snapStart(Function function) {
        return function.getNode().getDefaultChild() instanceof CfnFunction cfn
                && cfn.getSnapStart() != null
                && String.valueOf(Stack.of(function).resolve(cfn.getSnapStart()))
                        .contains("PublishedVersions");
    }

    private static Optional<Integer> reservedConcurrency(Function function) {
        if (!(function.getNode().getDefaultChild() instanceof CfnFunction cfn)
                || cfn.getReservedConcurrentExecutions() == null) {
            return Optional.empty();
        }
        Number reserved = cfn.getReservedConcurrentExecutions();
        return Token.isUnresolved(reserved) ? Optional.empty() : Optional.of(reserved.intValue());
    }

    private static <T> T settle(
            String consumer, String what, Optional<T> declared, Optional<T> seen, String whenNeither) {
        if (declared.isPresent() && seen.isPresent() && !declared.get().equals(seen.get())) {
            throw new IllegalArgumentException(what + " of consumer " + consumer + " is declared as "
                    + show(declared.get()) + ", but the app's own definition says " + show(seen.get())
                    + ": declare it only for an imported queue or function, or make the two agree");
        }
        return declared.or(() -> seen)
                .orElseThrow(() -> new IllegalArgumentException(
                        what + " of consumer " + consumer + " is unknown: " + whenNeither));
    }

    private static String show(Object value) {
        if (value instanceof Duration d) {
            return IsoDurations.format(d);
        }
        if (value instanceof IQueue q) {
            return q.getNode().getPath();
        }
        return String.valueOf(value);
    }

    private static Optional<CfnQueue> l1(IQueue queue) {
        return queue instanceof Queue own && own.getNode().getDefaultChild() instanceof CfnQueue cfn
                ? Optional.of(cfn)
                : Optional.empty();
    }

    private static String queueName(String consumer, String what, IQueue queue, Optional<CfnQueue> l1) {
        String name = l1.map(CfnQueue::getQueueName).orElseGet(queue::getQueueName);
        if (name == null || Token.isUnresolved(name)) {
            throw new IllegalArgumentException("the " + what + " of consumer " + consumer + " has no name known before "
                    + "deploy: the sweeper's route names the queues, so give it an explicit queueName (or import it "
                    + "by a literal ARN)");
        }
        return name;
    }

    private static Duration secondsOr(Number seconds, Duration otherwise) {
        if (seconds == null) {
            return otherwise;
        }
        if (Token.isUnresolved(seconds)) {
            throw new IllegalArgumentException("a queue setting is a token (" + seconds + "): Redrive checks it before "
                    + "deploy, so it must be a literal");
        }
        return Duration.ofSeconds(seconds.longValue());
    }

    private static Duration seconds(software.amazon.awscdk.Duration duration) {
        return Duration.ofSeconds(duration.toSeconds().longValue());
    }

    /** The variables the function reads ({@code REDRIVE_CLAIMS_TABLE}, ...), set on it when it is defined here. */
    public Map<String, String> environment() {
        return environment;
    }

    /** The settings this consumer was attached with. */
    public AttachedConsumerProps props() {
        return props;
    }

    /** The maxReceiveCount of the queue's redrive policy. */
    public int maxReceiveCount() {
        return maxReceiveCount;
    }

    /** The function's timeout. */
    public Duration functionTimeout() {
        return functionTimeout;
    }

    /** The queue's visibility timeout. */
    public Duration visibilityTimeout() {
        return visibilityTimeout;
    }

    @Override
    public String name() {
        return props.name();
    }

    @Override
    public IQueue sourceQueue() {
        return props.queue();
    }

    @Override
    public IQueue deadLetterQueue() {
        return deadLetterQueue;
    }

    @Override
    public String sourceQueueName() {
        return sourceQueueName;
    }

    @Override
    public String deadLetterQueueName() {
        return deadLetterQueueName;
    }

    @Override
    public Duration sourceRetention() {
        return sourceRetention;
    }

    @Override
    public Duration deadLetterRetention() {
        return deadLetterRetention;
    }

    @Override
    public IFunction function() {
        return props.function();
    }
}
