package dev.redrive.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.infra.TemplateView.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeastPrivilegeTest {

    private static final List<String> CONSUMERS = List.of("confirmation-email", "revenue-analytics");
    private static final List<String> DEAD_LETTER_READS =
            List.of("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility");

    private final TemplateView t = Synth.defaults();

    private String archive() {
        return t.resources("AWS::S3::Bucket").keySet().stream()
                .filter(id -> id.startsWith("ArchiveBucket"))
                .findFirst()
                .orElseThrow();
    }

    private String claimChecks() {
        return t.resources("AWS::S3::Bucket").keySet().stream()
                .filter(id -> id.startsWith("ClaimCheckBucket"))
                .findFirst()
                .orElseThrow();
    }

    private String outbox() {
        return t.resources("AWS::S3::Bucket").keySet().stream()
                .filter(id -> id.startsWith("EmailOutboxBucket"))
                .findFirst()
                .orElseThrow();
    }

    private static boolean allows(List<Statement> statements, String action, String resource) {
        return statements.stream().anyMatch(s -> s.allows(action) && s.on(resource));
    }

    @Test
    void consumersConsumeOnlyTheirOwnQueueAndSendOnlyToTheirOwnDeadLetterQueue() {
        for (String consumer : CONSUMERS) {
            List<Statement> policy = t.statementsOf(t.function(consumer));
            String own = t.queue("redrive-" + consumer);
            assertThat(allows(policy, "sqs:ReceiveMessage", own))
                    .as(consumer + " receives its queue")
                    .isTrue();
            assertThat(allows(policy, "sqs:ChangeMessageVisibility", own))
                    .as("backoff")
                    .isTrue();
            assertThat(allows(policy, "sqs:SendMessage", t.queue("redrive-" + consumer + "-dlq")))
                    .isTrue();
            for (String other : CONSUMERS) {
                String dlq = t.queue("redrive-" + other + "-dlq");
                DEAD_LETTER_READS.forEach(action -> assertThat(allows(policy, action, dlq))
                        .as(consumer + " must not " + action + " on " + other + "'s DLQ")
                        .isFalse());
                if (!other.equals(consumer)) {
                    assertThat(allows(policy, "sqs:SendMessage", dlq)).isFalse();
                    assertThat(allows(policy, "sqs:ReceiveMessage", t.queue("redrive-" + other)))
                            .isFalse();
                }
                assertThat(allows(policy, "sqs:SendMessage", t.queue("redrive-" + other)))
                        .as(consumer + " must not send to source queues")
                        .isFalse();
            }
        }
    }

    @Test
    void consumersMayClaimButNeverScanOrDeleteClaims() {
        String claims = t.table("ClaimsTable");
        for (String consumer : CONSUMERS) {
            List<Statement> policy = t.statementsOf(t.function(consumer));
            for (String action : List.of(
                    "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:ConditionCheckItem")) {
                assertThat(allows(policy, action, claims))
                        .as(consumer + " " + action)
                        .isTrue();
            }
            for (String action :
                    List.of("dynamodb:Scan", "dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:BatchWriteItem")) {
                assertThat(policy).noneMatch(s -> s.allows(action));
            }
            assertThat(policy).as(consumer + " on the quarantine").noneMatch(s -> s.on(t.table("QuarantineTable")));
        }
    }

    @Test
    void theEmailConsumerMayReadAndWriteOnlyItsProvidersBreakerInTheControlTable() {
        String control = t.table("ControlTable");
        List<Statement> email = t.statementsOf(t.function("confirmation-email"));

        assertThat(email).filteredOn(s -> s.on(control)).singleElement().satisfies(s -> {
            assertThat(s.actions())
                    .as("a read, and a transition with its history entry: one conditional UpdateItem")
                    .containsExactlyInAnyOrder("dynamodb:GetItem", "dynamodb:UpdateItem");
            assertThat(s.resources()).hasSize(1);
        });
        Map<String, Object> statement = t.resources("AWS::IAM::Policy").values().stream()
                .flatMap(p -> ((List<?>) TemplateView.map(TemplateView.map(p, "Properties"), "PolicyDocument")
                                .get("Statement"))
                        .stream())
                .map(TemplateView::cast)
                .filter(s -> "CircuitBreakerOfemailprovider".equals(s.get("Sid")))
                .findFirst()
                .orElseThrow();
        assertThat(statement.get("Condition"))
                .as("only the breaker's item: pk breaker#email-provider")
                .isEqualTo(Map.of(
                        "ForAllValues:StringEquals",
                        Map.of("dynamodb:LeadingKeys", List.of("breaker#email-provider"))));
        assertThat(t.environment(t.function("confirmation-email")))
                .containsEntry("REDRIVE_BREAKERS_TABLE", Map.of("Ref", control));
        assertThat(t.statementsOf(t.function("revenue-analytics"))).noneMatch(s -> s.on(control));
    }

    @Test
    void eachConsumerWritesOnlyItsOwnSideEffect() {
        List<Statement> email = t.statementsOf(t.function("confirmation-email"));
        List<Statement> revenue = t.statementsOf(t.function("revenue-analytics"));

        assertThat(allows(email, "s3:PutObject", outbox())).isTrue();
        assertThat(allows(email, "s3:GetObject", outbox()))
                .as("reads an email back to confirm a refused create-only write is the same email")
                .isTrue();
        assertThat(email).as("no s3 on the archive").noneMatch(s -> s.on(archive()));
        assertThat(email).noneMatch(s -> s.allows("s3:DeleteObject"));
        assertThat(email).noneMatch(s -> s.on(t.table("RevenueTable")));

        assertThat(allows(revenue, "dynamodb:UpdateItem", t.table("RevenueTable")))
                .isTrue();
        assertThat(revenue)
                .as("no s3 writes but a claim check in (a dead letter too large to go inline)")
                .noneMatch(s -> s.allows("s3:PutObject") && !s.on(claimChecks()));
        assertThat(revenue).noneMatch(s -> s.on(archive()) || s.on(outbox()));
    }

    @Test
    void onlyTheSweeperDrainsDeadLettersReplaysToSourcesAndTouchesTheLedgerAndArchive() {
        String sweeper = t.function("dlq-sweeper");
        List<Statement> policy = t.statementsOf(sweeper);
        for (String consumer : CONSUMERS) {
            String dlq = t.queue("redrive-" + consumer + "-dlq");
            assertThat(allows(policy, "sqs:ReceiveMessage", dlq)).isTrue();
            assertThat(allows(policy, "sqs:DeleteMessage", dlq)).isTrue();
            assertThat(allows(policy, "sqs:SendMessage", t.queue("redrive-" + consumer)))
                    .isTrue();
        }
        assertThat(allows(policy, "dynamodb:PutItem", t.table("QuarantineTable")))
                .isTrue();
        assertThat(allows(policy, "dynamodb:UpdateItem", t.table("QuarantineTable")))
                .as("a ledger save is an UpdateItem, which keeps the record's fence")
                .isTrue();
        assertThat(allows(policy, "dynamodb:Query", t.table("QuarantineTable"))).isTrue();
        assertThat(allows(policy, "dynamodb:UpdateItem", t.table("ControlTable")))
                .isTrue();
        assertThat(allows(policy, "dynamodb:GetItem", t.table("ClaimsTable"))).isTrue();
        assertThat(allows(policy, "dynamodb:BatchGetItem", t.table("ClaimsTable")))
                .as("the notes of a received batch's dead letters, in one read")
                .isTrue();
        assertThat(allows(policy, "dynamodb:PutItem", t.table("ClaimsTable"))).isFalse();
        assertThat(policy)
                .filteredOn(s -> s.on(t.table("ClaimsTable")))
                .as("reads by key only: no write, no scan, no query")
                .allSatisfy(s ->
                        assertThat(s.actions()).containsExactlyInAnyOrder("dynamodb:GetItem", "dynamodb:BatchGetItem"));
        assertThat(allows(policy, "s3:PutObject", archive())).isTrue();
        assertThat(allows(policy, "s3:GetObject", archive())).isTrue();
        assertThat(policy)
                .filteredOn(s -> s.on(archive()))
                .as("the archive is the audit trail: read and written, never deleted (only its lifecycle expires it)")
                .singleElement()
                .satisfies(s -> assertThat(s.actions()).containsExactly("s3:GetObject", "s3:PutObject"));
        for (String never : List.of(
                "s3:DeleteObject",
                "s3:DeleteObjectVersion",
                "dynamodb:Scan",
                "dynamodb:DeleteItem",
                "dynamodb:BatchWriteItem",
                "sqs:ChangeMessageVisibility",
                "sqs:PurgeQueue")) {
            assertThat(policy).as("the sweeper never calls " + never).noneMatch(s -> s.allows(never));
        }
        assertThat(policy).noneMatch(s -> s.on(outbox()));

        Map<String, List<Statement>> others = Map.of(
                "confirmation-email", t.statementsOf(t.function("confirmation-email")),
                "revenue-analytics", t.statementsOf(t.function("revenue-analytics")));
        others.forEach((name, statements) ->
                assertThat(statements).as(name).noneMatch(s -> s.on(archive()) || s.on(t.table("QuarantineTable"))));
    }

    @Test
    void theScheduleRoleMayOnlyInvokeTheSweeperAndDeadLetterItsOwnFailures() {
        String role = t.resources("AWS::IAM::Role").keySet().stream()
                .filter(id -> id.startsWith("SweeperScheduleRole"))
                .findFirst()
                .orElseThrow();
        List<Statement> policy = t.statementsOfRole(role);

        assertThat(allows(policy, "lambda:InvokeFunction", t.alias(t.function("dlq-sweeper"))))
                .as("the schedule invokes the sweeper's alias")
                .isTrue();
        assertThat(policy)
                .filteredOn(s -> s.allows("lambda:InvokeFunction"))
                .allSatisfy(
                        s -> assertThat(s.on(t.function("confirmation-email"))).isFalse());
        assertThat(allows(policy, "sqs:SendMessage", t.queue("redrive-sweeper-schedule-dlq")))
                .isTrue();
        assertThat(policy).noneMatch(s -> s.allows("kms:Encrypt") || s.allows("sqs:ReceiveMessage"));
        assertThat(String.valueOf(t.resource(role))).contains("scheduler.amazonaws.com", "aws:SourceAccount");
    }

    @Test
    void noPolicyGrantsAServiceWideActionOrEveryResource() {
        assertThat(t.resources("AWS::IAM::Policy"))
                .as("7 functions' roles, 3 schedules' roles, and the role of CDK's handler that writes the routes "
                        + "document (BucketDeployment)")
                .hasSize(11);
        assertThat(t.resources("AWS::IAM::Policy").values())
                .allSatisfy(p -> assertThat(String.valueOf(p))
                        .doesNotContain("kms:*", "sqs:*", "dynamodb:*", "s3:*")
                        .satisfies(text -> assertThat(
                                        text.replace("{Action=dynamodb:ListStreams, Effect=Allow, Resource=*}", ""))
                                .as("every resource only for dynamodb:ListStreams, which has no resource-level "
                                        + "permission (the relay's stream event source needs it)")
                                .doesNotContain("Resource=*")));
    }
}
