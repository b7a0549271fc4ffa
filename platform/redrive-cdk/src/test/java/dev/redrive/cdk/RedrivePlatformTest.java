package dev.redrive.cdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.cdk.monitoring.AlarmThresholds;
import dev.redrive.cdk.monitoring.Monitoring;
import dev.redrive.cdk.sweeper.SweeperCode;
import dev.redrive.schema.RoutesDocument;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.CreateAlarmOptions;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;

/** The one construct a team adds to its own stack: platform, attached consumers, and the sweeper with its own code. */
class RedrivePlatformTest {

    @TempDir
    Path tmp;

    private static int apps;

    /** A team's existing queue (with its DLQ) and function. */
    private record Team(Stack stack, Queue queue, Function function) {
        static Team create(Path code) {
            Stack stack = new Stack(
                    new App(AppProps.builder()
                            .outdir("target/test-cdk.out/platform-" + (++apps))
                            .build()),
                    "Team");
            Queue dlq = Queue.Builder.create(stack, "OrdersDlq")
                    .queueName("orders-dlq")
                    .retentionPeriod(software.amazon.awscdk.Duration.days(14))
                    .build();
            Queue queue = Queue.Builder.create(stack, "Orders")
                    .queueName("orders")
                    .visibilityTimeout(software.amazon.awscdk.Duration.minutes(3))
                    .deadLetterQueue(DeadLetterQueue.builder()
                            .queue(dlq)
                            .maxReceiveCount(10)
                            .build())
                    .build();
            Function function = Function.Builder.create(stack, "Receipts")
                    .runtime(Runtime.JAVA_21)
                    .handler("com.example.Receipts::handleRequest")
                    .code(Code.fromAsset(code.toString()))
                    .timeout(software.amazon.awscdk.Duration.seconds(30))
                    .build();
            return new Team(stack, queue, function);
        }
    }

    /** A jar with the entries that make it the sweeper's self-contained jar (and, unless thin, the SDK). */
    private Path jar(String name, boolean thin) throws IOException {
        Path jar = tmp.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar);
                ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("dev/redrive/sweeper/DeadLetterSweeperHandler.class"));
            zip.closeEntry();
            if (!thin) {
                zip.putNextEntry(new ZipEntry("software/amazon/awssdk/services/dynamodb/DynamoDbClient.class"));
                zip.closeEntry();
            }
        }
        return jar;
    }

    @Test
    void aTeamsQueueAndFunctionGetThePlatformAndASweeperThatRunsItsOwnCodeAndServesThemByTheirContract()
            throws IOException {
        Team team = Team.create(jar("team.jar", true));

        RedrivePlatform redrive = RedrivePlatform.Builder.create(team.stack(), "Redrive")
                .consumer("receipts", team.queue(), team.function(), TestContracts.orderPlaced("receipts"))
                .sweeperCode(SweeperCode.fromJar(jar("sweeper.jar", false)))
                .build();

        assertThat(RoutesDocument.parse(redrive.sweeper().routesDocument()).route("receipts"))
                .hasValueSatisfying(r -> {
                    assertThat(r.sourceQueue()).isEqualTo("orders");
                    assertThat(r.deadLetterQueue()).isEqualTo("orders-dlq");
                    assertThat(r.contract().orElseThrow().key().pointer()).isEqualTo("/orderId");
                });
        Template template = Template.fromStack(team.stack());
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "Handler",
                        SweeperCode.HANDLER,
                        "Runtime",
                        "java21",
                        "Environment",
                        Map.of(
                                "Variables",
                                Match.objectLike(Map.of(
                                        "REDRIVE_ROUTES",
                                        Match.anyValue(),
                                        "REDRIVE_CLAIMS_RECORD_TTL",
                                        "P26D",
                                        "REDRIVE_SWEEPER_RETENTION",
                                        "P7D",
                                        "QUARKUS_LAMBDA_HANDLER",
                                        Match.absent())))));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "Handler",
                        "com.example.Receipts::handleRequest",
                        "Environment",
                        Map.of(
                                "Variables",
                                Match.objectLike(Map.of(
                                        "REDRIVE_CLAIMS_TABLE", Match.anyValue(),
                                        "REDRIVE_CLAIMS_RECORD_TTL", "P26D", // 4 d + 14 d + 7 d + 1 d margin
                                        "REDRIVE_CLAIM_CHECKS_BUCKET", Match.anyValue())))));
        template.resourceCountIs("AWS::Lambda::Function", 3); // the team's, the sweeper's, the routes deployment's
        template.resourceCountIs("AWS::SQS::Queue", 3); // the team's two, the sweeper schedule's failures
        template.resourceCountIs("AWS::DynamoDB::Table", 3);
        template.resourceCountIs("AWS::Scheduler::Schedule", 1);
        assertThat(redrive.consumers()).containsOnlyKeys("receipts");
    }

    @Test
    void theSweepersCodeMustBeItsSelfContainedJar() throws IOException {
        Path thin = jar("redrive-sweeper-thin.jar", true);
        Path other = tmp.resolve("other.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(other))) {
            zip.putNextEntry(new ZipEntry("com/example/Other.class"));
            zip.closeEntry();
        }

        assertThatThrownBy(() -> SweeperCode.fromJar(thin))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("thin jar")
                .hasMessageContaining("classifier lambda");
        assertThatThrownBy(() -> SweeperCode.fromJar(other))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not redrive-sweeper's jar");
        assertThatThrownBy(() -> SweeperCode.fromJar(tmp.resolve("missing.jar")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not exist");
        assertThatThrownBy(SweeperCode::fromClassPath)
                .as("this module's tests have no sweeper jar on their class path")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("<classifier>lambda</classifier>");
    }

    @Test
    void aContractOfAnotherConsumerAndAPlatformWithoutConsumersAreRefused() throws IOException {
        Team team = Team.create(jar("team.jar", true));

        assertThatThrownBy(() -> RedrivePlatform.Builder.create(team.stack(), "Redrive")
                        .consumer("receipts", team.queue(), team.function(), TestContracts.orderPlaced("invoices")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the contract given for consumer receipts is the contract of invoices");
        assertThatThrownBy(() ->
                        RedrivePlatform.Builder.create(team.stack(), "Empty").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without consumers");
    }

    @Test
    void withMonitoringEveryAttachedConsumersQueuesItsBreakerAndTheSweeperAlarmOnOneTopic() throws IOException {
        Team team = Team.create(jar("team.jar", true));

        RedrivePlatform redrive = RedrivePlatform.Builder.create(team.stack(), "Redrive")
                .consumer(
                        "receipts",
                        team.queue(),
                        team.function(),
                        TestContracts.orderPlaced("receipts"),
                        Optional.of("mail-provider"),
                        UnaryOperator.identity())
                .sweeperCode(SweeperCode.fromJar(jar("sweeper.jar", false)))
                .monitoring(AlarmThresholds.DEFAULT.withSourceOldestMessageAge(java.time.Duration.ofMinutes(10)))
                .build();
        Monitoring monitoring = redrive.monitoring().orElseThrow();
        monitoring.addAlarm(
                "redrive-receipts-unsent",
                Metric.Builder.create()
                        .namespace("Team")
                        .metricName("ReceiptsUnsent")
                        .build(),
                CreateAlarmOptions.builder()
                        .threshold(1)
                        .evaluationPeriods(1)
                        .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                        .build());
        Template template = Template.fromStack(team.stack());

        Map<String, Map<String, Object>> alarms = template.findResources("AWS::CloudWatch::Alarm");
        assertThat(alarms.values().stream()
                        .map(a -> String.valueOf(((Map<?, ?>) a.get("Properties")).get("AlarmName")))
                        .toList())
                .as("the team's queue names get the prefix in front: the topic admits only redrive-* alarms")
                .containsExactlyInAnyOrder(
                        "redrive-orders-oldest-message-age",
                        "redrive-orders-depth",
                        "redrive-orders-dlq-oldest-message-age",
                        "redrive-orders-dlq-depth",
                        "redrive-orders-dlq-arrivals-above-baseline",
                        "redrive-sweeper-schedule-dlq-arrival",
                        "redrive-oldest-unresolved-quarantine",
                        "redrive-replay-success-rate",
                        "redrive-sweeper-heartbeat",
                        "redrive-sweeper-errors",
                        "redrive-sweeper-throttles",
                        "redrive-receipts-errors",
                        "redrive-receipts-throttles",
                        "redrive-claims-table-throttles",
                        "redrive-quarantine-table-throttles",
                        "redrive-quarantine-byState-index-throttles",
                        "redrive-quarantine-byQueue-index-throttles",
                        "redrive-control-table-throttles",
                        "redrive-account-concurrency",
                        "redrive-mail-provider-breaker-open",
                        "redrive-receipts-unsent");
        template.hasResourceProperties(
                "AWS::CloudWatch::Alarm", Map.of("AlarmName", "redrive-orders-oldest-message-age", "Threshold", 600));
        String topic =
                template.findResources("AWS::SNS::Topic").keySet().iterator().next();
        assertThat(alarms.values())
                .allSatisfy(a -> assertThat(((Map<?, ?>) a.get("Properties")).get("AlarmActions"))
                        .isEqualTo(List.of(Map.of("Ref", topic))));
        template.hasResourceProperties(
                "AWS::SNS::Topic",
                Map.of(
                        "KmsMasterKeyId",
                        Map.of(
                                "Fn::GetAtt",
                                List.of(
                                        team.stack().getLogicalId((software.amazon.awscdk.CfnElement)
                                                redrive.key().getNode().getDefaultChild()),
                                        "Arn"))));
        template.hasResourceProperties("AWS::CloudWatch::Dashboard", Map.of("DashboardName", "redrive-redrive"));
        assertThat(String.valueOf(template.findResources("AWS::CloudWatch::Dashboard")))
                .contains("\"Processed\",\"Consumer\",\"receipts\"")
                .contains("\"BreakerOpenSeconds\",\"Dependency\",\"mail-provider\"")
                .as("the breaker history reads the team function's log group")
                .contains("SOURCE ', "
                        + team.stack().resolve(team.function().getLogGroup().getLogGroupName())
                        + ", ' |");
    }

    @Test
    void withoutMonitoringThereIsNoAlarmNorDashboard() throws IOException {
        Team team = Team.create(jar("team.jar", true));

        RedrivePlatform redrive = RedrivePlatform.Builder.create(team.stack(), "Redrive")
                .consumer("receipts", team.queue(), team.function(), TestContracts.orderPlaced("receipts"))
                .sweeperCode(SweeperCode.fromJar(jar("sweeper.jar", false)))
                .build();
        Template template = Template.fromStack(team.stack());

        assertThat(redrive.monitoring()).isEmpty();
        template.resourceCountIs("AWS::CloudWatch::Alarm", 0);
        template.resourceCountIs("AWS::CloudWatch::Dashboard", 0);
        template.resourceCountIs("AWS::SNS::Topic", 0);
    }
}
