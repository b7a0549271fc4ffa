package dev.redrive.cdk.function;

import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.iam.ServicePrincipalOpts;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.EventInvokeConfigOptions;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.destinations.SqsDestination;
import software.amazon.awscdk.services.scheduler.Schedule;
import software.amazon.awscdk.services.scheduler.ScheduleExpression;
import software.amazon.awscdk.services.scheduler.ScheduleTargetInput;
import software.amazon.awscdk.services.scheduler.targets.LambdaInvoke;
import software.amazon.awscdk.services.scheduler.targets.ScheduleTargetBaseProps;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * A function run by an EventBridge Scheduler schedule, the one way every scheduled Redrive function is run. Scheduler
 * invokes asynchronously: once Lambda has queued the event, the schedule's retry policy no longer applies, and
 * Lambda's own async retries (2, for up to 6 h) would run stale runs late. So async retries are off, events older
 * than one run's timeout are dropped, and the next scheduled run is the retry; a run that failed or went stale, and an
 * invocation the scheduler could not deliver, land in the schedule's dead-letter queue (KMS-encrypted, 14 days, not
 * drained: its alarm is on arrivals). Creates {@code ScheduleDeadLetterQueue}, {@code ScheduleRole} and
 * {@code Schedule} in {@code scope}. Give it what the function's triggers invoke ({@link LiveFunction#entryPoint()}):
 * the schedule invokes it, and the asynchronous invocation settings, which Lambda keeps per qualifier, are set on it.
 *
 * @param deadLetterQueue where failed and undeliverable runs are recorded
 * @param schedule        the schedule
 */
public record ScheduledRun(Queue deadLetterQueue, Schedule schedule) {

    /**
     * Schedules {@code function} (a function, or the alias its triggers invoke) in {@code scope}.
     *
     * @param queueName   the dead-letter queue's name
     * @param what        what the schedule runs, for its description ("the Redrive dead-letter sweeper")
     * @param expression  {@code rate(...)} or {@code cron(...)}
     * @param timeout     the function's timeout: a run's event older than it is dropped
     * @param input       the event each run gets
     */
    public static ScheduledRun of(
            Construct scope,
            IFunction function,
            IKey key,
            String queueName,
            String what,
            String expression,
            java.time.Duration timeout,
            Map<String, String> input) {
        Queue deadLetters = Queue.Builder.create(scope, "ScheduleDeadLetterQueue")
                .queueName(queueName)
                .retentionPeriod(Duration.days(14))
                .encryption(QueueEncryption.KMS)
                .encryptionMasterKey(key)
                .enforceSsl(true)
                .build();
        function.configureAsyncInvoke(EventInvokeConfigOptions.builder()
                .retryAttempts(0)
                .maxEventAge(Duration.seconds(timeout.toSeconds()))
                .onFailure(new SqsDestination(deadLetters))
                .build());
        // Our own role (not the target's shared default) so it can also encrypt into the KMS-encrypted DLQ.
        Role role = Role.Builder.create(scope, "ScheduleRole")
                .description("EventBridge Scheduler invokes " + what)
                .assumedBy(new ServicePrincipal(
                        "scheduler.amazonaws.com",
                        ServicePrincipalOpts.builder()
                                .conditions(Map.of(
                                        "StringEquals",
                                        Map.of(
                                                "aws:SourceAccount",
                                                Stack.of(scope).getAccount())))
                                .build()))
                .build();
        key.grant(role, "kms:Decrypt", "kms:GenerateDataKey*");
        Schedule schedule = Schedule.Builder.create(scope, "Schedule")
                .description("Runs " + what)
                .schedule(ScheduleExpression.expression(expression))
                .target(new LambdaInvoke(
                        function,
                        ScheduleTargetBaseProps.builder()
                                .role(role)
                                .input(ScheduleTargetInput.fromObject(input))
                                .retryAttempts(2)
                                .maxEventAge(Duration.minutes(10))
                                .deadLetterQueue(deadLetters)
                                .build()))
                .build();
        return new ScheduledRun(deadLetters, schedule);
    }
}
