package dev.redrive.sweeper;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.redrive.lambda.ClaimTtlCheck;
import dev.redrive.lambda.EmfOutput;
import dev.redrive.lambda.Redrive;
import dev.redrive.lambda.RedriveSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The sweeper as a plain Java Lambda handler ({@code dev.redrive.sweeper.DeadLetterSweeperHandler::handleRequest} on
 * the {@code java21} runtime), invoked by the EventBridge schedule. It holds no consumer's code: every consumer's
 * queues and event contract come from the routes document ({@code REDRIVE_ROUTES}). Its settings are the
 * {@code REDRIVE_*} variables of {@link RedriveSettings} (claims, claim checks, AWS) and of
 * {@link SweeperFunctionSettings}; it refuses to start with a claim TTL a dead letter can outlive.
 *
 * <p>A failed invocation is not retried by Lambda (the CDK construct turns async retries off); the next scheduled run
 * is the retry. The schedule's event carries nothing the run needs.
 */
public class DeadLetterSweeperHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    /** When the context gives no deadline (a local call): the sweeper's Lambda timeout. */
    static final Duration UNKNOWN_DEADLINE_REMAINING = Duration.ofMinutes(5);

    private final SweepRun run;

    /** From this process' environment, once per sandbox (Lambda's init phase). */
    public DeadLetterSweeperHandler() {
        this(fromEnvironment(System.getenv()));
    }

    /** With a run built elsewhere (tests, a framework's wiring). */
    public DeadLetterSweeperHandler(SweepRun run) {
        this.run = Objects.requireNonNull(run, "run");
    }

    /** The run {@code environment} configures, with SDK clients resolved the SDK's way (region, endpoints). */
    public static SweepRun fromEnvironment(Map<String, String> environment) {
        RedriveSettings settings = RedriveSettings.fromEnvironment(environment);
        return fromSettings(
                SweeperFunctionSettings.fromEnvironment(environment),
                settings,
                Redrive.platformClient(DynamoDbClient.builder(), settings),
                Redrive.platformClient(SqsClient.builder(), settings),
                Redrive.platformClient(S3Client.builder(), settings));
    }

    /** The run of these settings and clients; refuses an unsafe claim TTL ({@link ClaimTtlCheck}). */
    public static SweepRun fromSettings(
            SweeperFunctionSettings sweeper,
            RedriveSettings settings,
            DynamoDbClient dynamoDb,
            SqsClient sqs,
            S3Client s3) {
        ClaimTtlCheck.check(settings.claims());
        return SweeperWiring.sweepRun(
                sweeper, settings, dynamoDb, sqs, s3, new SweeperMetrics(EmfOutput.stdout()), Clock.systemUTC());
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        Duration remaining = context == null || context.getRemainingTimeInMillis() <= 0
                ? UNKNOWN_DEADLINE_REMAINING
                : Duration.ofMillis(context.getRemainingTimeInMillis());
        String owner = context == null ? "local" : context.getFunctionName() + "/" + context.getAwsRequestId();
        return run.run(remaining, owner);
    }
}
