package dev.redrive.cdk.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.cdk.TestContracts;
import dev.redrive.cdk.consumer.ConsumerPlatform;
import dev.redrive.cdk.consumer.IdempotentConsumer;
import dev.redrive.cdk.consumer.IdempotentConsumerProps;
import dev.redrive.cdk.function.FunctionArtifact;
import dev.redrive.cdk.function.FunctionFactory;
import dev.redrive.cdk.function.FunctionRuntime;
import dev.redrive.cdk.storage.Buckets;
import dev.redrive.cdk.storage.Tables;
import dev.redrive.core.replay.ReplayPace;
import dev.redrive.schema.DeclaredRoute;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.lambda.Architecture;

/**
 * The sweeper's role holds exactly the calls its code makes (the adapters of {@code redrive-aws} it wires): read and
 * write the archive but never delete from it; no Scan, DeleteItem or BatchWriteItem anywhere.
 */
class SweeperPrivilegesTest {

    private static final Map<String, Object> STATEMENTS = statementsBySid();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> statementsBySid() {
        Stack stack = new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/sweeper-privileges")
                        .build()),
                "Redrive");
        Key key = new Key(stack, "DataKey");
        Tables tables = Tables.create(stack, key);
        FunctionFactory functions = new FunctionFactory(
                FunctionArtifact.resolve(
                        Optional.empty(),
                        Path.of("target", "test-function-placeholder"),
                        FunctionRuntime.JVM,
                        Architecture.X86_64),
                Architecture.X86_64);
        ConsumerPlatform platform = new ConsumerPlatform("redrive", key, tables.claims(), functions);
        List<SweptConsumer> swept = new ArrayList<>();
        for (String name : List.of("receipts", "revenue")) {
            IdempotentConsumer c = new IdempotentConsumer(
                    stack,
                    name,
                    platform,
                    IdempotentConsumerProps.builder(name, name).build());
            swept.add(new SweptConsumer(
                    c,
                    new DeclaredRoute(
                            name,
                            c.sourceQueueName(),
                            c.deadLetterQueueName(),
                            Optional.of(TestContracts.orderPlaced(name)),
                            Optional.empty())));
        }
        DlqSweeper sweeper = new DlqSweeper(
                stack,
                "Sweeper",
                new SweeperProps(
                        "redrive",
                        FunctionRuntime.JVM,
                        functions,
                        key,
                        tables,
                        Buckets.create(stack, key, 365).archive(),
                        swept,
                        Duration.ofDays(7),
                        "rate(5 minutes)",
                        ReplayPace.DEFAULT));
        String role = stack.resolve(sweeper.function().getRole().getRoleName()).toString();
        Map<String, Object> bySid = new java.util.LinkedHashMap<>();
        Template.fromStack(stack).findResources("AWS::IAM::Policy").values().forEach(policy -> {
            Map<String, Object> props = (Map<String, Object>) ((Map<String, Object>) policy).get("Properties");
            if (String.valueOf(props.get("Roles")).contains(role.replaceAll(".*Ref=([^}]+)}.*", "$1"))) {
                for (Object s : (List<Object>) ((Map<String, Object>) props.get("PolicyDocument")).get("Statement")) {
                    Map<String, Object> statement = (Map<String, Object>) s;
                    Object sid = statement.get("Sid");
                    bySid.put(sid == null ? "unnamed#" + bySid.size() : sid.toString(), statement);
                }
            }
        });
        return bySid;
    }

    private static List<String> actions(Object statement) {
        Object a = ((Map<?, ?>) statement).get("Action");
        return a instanceof List<?> l ? l.stream().map(Object::toString).toList() : List.of(a.toString());
    }

    private static Set<String> all(String service) {
        Set<String> out = new TreeSet<>();
        STATEMENTS
                .values()
                .forEach(s -> actions(s).stream()
                        .filter(a -> a.startsWith(service + ":"))
                        .forEach(out::add));
        return out;
    }

    @Test
    void theSweeperMayReadAndWriteTheArchiveButNeverDeleteFromIt() {
        assertThat(STATEMENTS).containsKey("Archive");
        assertThat(actions(STATEMENTS.get("Archive"))).containsExactly("s3:GetObject", "s3:PutObject");
        assertThat(all("s3"))
                .as("the archive's objects and the routes document: reads and puts only")
                .containsExactly("s3:GetObject", "s3:PutObject");
    }

    @Test
    void theSweepersTableActionsAreExactlyTheCallsItsCodeMakes() {
        assertThat(actions(STATEMENTS.get("QuarantineLedger")))
                .containsExactly(
                        "dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:PutItem", "dynamodb:UpdateItem");
        assertThat(actions(STATEMENTS.get("QuarantineLedgerIndexes"))).containsExactly("dynamodb:Query");
        assertThat(String.valueOf(((Map<?, ?>) STATEMENTS.get("QuarantineLedgerIndexes")).get("Resource")))
                .contains("/index/*");
        assertThat(actions(STATEMENTS.get("ControlTable")))
                .containsExactly("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query");
        assertThat(actions(STATEMENTS.get("IdempotencyLookup")))
                .containsExactly("dynamodb:GetItem", "dynamodb:BatchGetItem");
        assertThat(all("dynamodb"))
                .containsExactly(
                        "dynamodb:BatchGetItem",
                        "dynamodb:GetItem",
                        "dynamodb:PutItem",
                        "dynamodb:Query",
                        "dynamodb:UpdateItem");
    }

    @Test
    void theSweepersQueueAndKeyActionsAreExactlyTheCallsItsCodeMakes() {
        assertThat(actions(STATEMENTS.get("DeadLetterQueues")))
                .containsExactly(
                        "sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl");
        assertThat(actions(STATEMENTS.get("ReplaysToSourceQueues")))
                .containsExactly("sqs:SendMessage", "sqs:GetQueueUrl");
        assertThat(all("sqs"))
                .containsExactly(
                        "sqs:DeleteMessage",
                        "sqs:GetQueueAttributes",
                        "sqs:GetQueueUrl",
                        "sqs:ReceiveMessage",
                        "sqs:SendMessage");
        assertThat(actions(STATEMENTS.get("DataKey")))
                .containsExactly("kms:Decrypt", "kms:DescribeKey", "kms:Encrypt", "kms:GenerateDataKey*");
        assertThat(all("kms"))
                .as("kms:ReEncrypt* only by CDK's grant to Lambda's on-failure destination (the schedule's DLQ)")
                .containsExactly(
                        "kms:Decrypt", "kms:DescribeKey", "kms:Encrypt", "kms:GenerateDataKey*", "kms:ReEncrypt*");
        assertThat(STATEMENTS.entrySet().stream()
                        .filter(e -> e.getKey().startsWith("unnamed#"))
                        .map(e -> String.valueOf(e.getValue()))
                        .toList())
                .as("the statements no Sid names are CDK's, for Lambda's on-failure destination: the schedule's DLQ")
                .containsExactlyInAnyOrder(
                        "{Action=[sqs:SendMessage, sqs:GetQueueAttributes, sqs:GetQueueUrl], Effect=Allow, "
                                + "Resource={Fn::GetAtt=[SweeperScheduleDeadLetterQueue7B5BE4A6, Arn]}}",
                        "{Action=[kms:Decrypt, kms:Encrypt, kms:ReEncrypt*, kms:GenerateDataKey*], Effect=Allow, "
                                + "Resource={Fn::GetAtt=[DataKey17AFBB84, Arn]}}");
    }
}
