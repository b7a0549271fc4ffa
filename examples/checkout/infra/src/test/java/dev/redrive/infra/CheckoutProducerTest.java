package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The producer side in the template: the checkout behind an IAM-authenticated Function URL, the orders table with its
 * stream and sparse indexes, the relay on the stream (outbox INSERTs only, partial batch failures, bisect, bounded
 * retries, an on-failure queue) sending to both consumers' queues, the two schedules, and least privilege.
 */
class CheckoutProducerTest {

    final TemplateView t = Synth.defaults();

    String orders() {
        return t.resources("AWS::DynamoDB::Table").keySet().stream()
                .filter(id -> id.startsWith("CheckoutProducerOrdersTable"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theCheckoutIsAFunctionUrlWithIamAuthOnTheOrdersTable() {
        String checkout = t.function("checkout");
        assertThat(t.resources("AWS::Lambda::Url").values())
                .singleElement()
                .satisfies(u -> assertThat(map(u, "Properties"))
                        .containsEntry("AuthType", "AWS_IAM")
                        .containsEntry("TargetFunctionArn", Map.of("Fn::GetAtt", List.of(checkout, "Arn")))
                        .containsEntry("Qualifier", "live"));
        assertThat(t.environment(checkout))
                .containsEntry("REDRIVE_CHECKOUT_ORDERS_TABLE", Map.of("Ref", orders()))
                .containsEntry("REDRIVE_CHECKOUT_PAYMENTS_URL", Synth.PAYMENT_PROVIDER_URL);
        assertThat(t.statementsOf(checkout))
                .filteredOn(s -> s.on(orders()))
                .singleElement()
                .satisfies(s -> assertThat(s.actions())
                        .containsExactlyInAnyOrder(
                                "dynamodb:GetItem",
                                "dynamodb:BatchGetItem",
                                "dynamodb:Query",
                                "dynamodb:PutItem",
                                "dynamodb:UpdateItem",
                                "dynamodb:ConditionCheckItem"));
        assertThat(t.statementsOf(checkout)).noneMatch(s -> s.allows("sqs:SendMessage"));
    }

    /** The durations the local run compresses by its speed are in the template even at the functions' defaults. */
    @Test
    void theOutboxSweepAndTheReconciliationAreToldTheirDurations() {
        assertThat(t.environment(t.function("outbox-sweeper")))
                .containsEntry("REDRIVE_CHECKOUT_OUTBOX_REPUBLISH_AFTER", "PT5M");
        assertThat(t.environment(t.function("checkout-reconciliation")))
                .containsEntry("REDRIVE_CHECKOUT_RECONCILIATION_GRACE", "PT15M")
                .containsEntry("REDRIVE_CHECKOUT_RECONCILIATION_LEASE", "PT1M");
        assertThat(t.environment(t.function("outbox-relay")))
                .doesNotContainKey("REDRIVE_CHECKOUT_OUTBOX_REPUBLISH_AFTER");
    }

    @Test
    void theOrdersTableStreamsNewImagesAndHasItsSparseIndexes() {
        Map<String, Object> table = t.properties(orders());
        assertThat(map(table, "StreamSpecification")).containsEntry("StreamViewType", "NEW_IMAGE");
        assertThat(String.valueOf(table.get("GlobalSecondaryIndexes")))
                .contains("IndexName=byUnpublished", "AttributeName=unpublished", "AttributeName=createdAt")
                .contains("IndexName=byOpenAttempt", "AttributeName=openAttempt", "AttributeName=leaseUntil");
    }

    @Test
    void theRelayReadsOutboxInsertsFromTheStreamAndSendsToBothConsumersQueues() {
        String relay = t.function("outbox-relay");
        Map<String, Object> mapping = t.resources("AWS::Lambda::EventSourceMapping").values().stream()
                .map(r -> map(r, "Properties"))
                .filter(m -> t.invokedName(relay).equals(m.get("FunctionName")))
                .findFirst()
                .orElseThrow();

        assertThat(mapping.get("EventSourceArn")).isEqualTo(Map.of("Fn::GetAtt", List.of(orders(), "StreamArn")));
        assertThat(mapping)
                .containsEntry("StartingPosition", "TRIM_HORIZON")
                .containsEntry("BatchSize", 10)
                .containsEntry("BisectBatchOnFunctionError", true)
                .containsEntry("MaximumRetryAttempts", 5)
                .containsEntry("ParallelizationFactor", 1)
                .containsEntry("FunctionResponseTypes", List.of("ReportBatchItemFailures"));
        assertThat(String.valueOf(map(map(mapping, "DestinationConfig"), "OnFailure")))
                .contains(t.queue("redrive-outbox-relay-failures"));
        assertThat(mapping.get("FilterCriteria"))
                .as("one pattern, its keys in the order written: the same template from every synth")
                .isEqualTo(Map.of(
                        "Filters",
                        List.of(Map.of(
                                "Pattern",
                                "{\"eventName\":[\"INSERT\"],\"dynamodb\":{\"Keys\":{\"sk\":{\"S\":"
                                        + "[{\"prefix\":\"outbox#\"}]}}}}"))));
        String queues = String.valueOf(t.environment(relay).get("REDRIVE_CHECKOUT_OUTBOX_SUBSCRIBER_QUEUES"));
        assertThat(queues)
                .contains(t.queue("redrive-confirmation-email"))
                .contains(t.queue("redrive-revenue-analytics"));
        for (String consumer : List.of("redrive-confirmation-email", "redrive-revenue-analytics")) {
            assertThat(t.statementsOf(relay)).anyMatch(s -> s.allows("sqs:SendMessage") && s.on(t.queue(consumer)));
        }
        assertThat(t.statementsOf(relay))
                .filteredOn(s -> s.on(orders())
                        && s.actions().stream()
                                .anyMatch(a -> String.valueOf(a).matches("dynamodb:(Put|Update|Delete)Item")))
                .singleElement()
                .satisfies(s -> assertThat(s.actions()).containsExactly("dynamodb:UpdateItem"));
    }

    @Test
    void theOutboxSweepAndTheReconciliationRunOnTheirOwnSchedulesReadingOnlyTheirIndexes() {
        for (String handler : List.of("outbox-sweeper", "checkout-reconciliation")) {
            String fn = t.function(handler);
            assertThat(t.resources("AWS::Scheduler::Schedule").values())
                    .as(handler)
                    .anyMatch(s -> Map.of("Ref", t.alias(fn))
                            .equals(map(map(s, "Properties"), "Target").get("Arn")));
            assertThat(t.statementsOf(fn))
                    .filteredOn(s -> s.allows("dynamodb:Query"))
                    .singleElement()
                    .satisfies(s -> assertThat(String.valueOf(s.resources()))
                            .contains(
                                    handler.equals("outbox-sweeper")
                                            ? "/index/byUnpublished"
                                            : "/index/byOpenAttempt"));
        }
    }

    /**
     * Issue 36: the reconciliation's release is fenced by the attempt's token, a ConditionCheck in its transaction
     * (TransactWriteItems is authorized per item's action: UpdateItem and ConditionCheckItem).
     */
    @Test
    void theReconciliationMayTakeUpdateAndFenceItsWritesOnTheOrdersTableAndNothingMore() {
        String fn = t.function("checkout-reconciliation");
        assertThat(t.statementsOf(fn))
                .filteredOn(s -> s.allows("dynamodb:Query"))
                .singleElement()
                .satisfies(s -> assertThat(s.actions())
                        .containsExactlyInAnyOrder(
                                "dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:ConditionCheckItem"));
    }

    @Test
    void theCheckoutsUrlAndOrdersTableAreOutputsAndTheProducerCanBeLeftOut() {
        assertThat(t.template().findOutputs("CheckoutUrl")).isNotEmpty();
        assertThat(t.template().findOutputs("OrdersTableName")).isNotEmpty();

        TemplateView without = Synth.template(Map.of("checkoutProducer", "false"));

        assertThat(without.functionIds()).hasSize(3);
        assertThat(without.resources("AWS::Lambda::Url")).isEmpty();
        assertThat(without.template().findOutputs("CheckoutUrl")).isEmpty();
    }

    @Test
    void aPaymentProviderUrlReachesTheCheckoutAndTheReconciliationAndABadOneIsRefused() {
        TemplateView with = Synth.template(Map.of("paymentProviderUrl", "https://payments.example.com/v1/"));

        for (String handler : List.of("checkout", "checkout-reconciliation")) {
            assertThat(with.environment(with.function(handler)))
                    .containsEntry("REDRIVE_CHECKOUT_PAYMENTS_URL", "https://payments.example.com/v1/");
        }
        assertThatThrownBy(() -> Synth.stack(Map.of("paymentProviderUrl", "payments.example.com")))
                .hasMessageContaining("paymentProviderUrl");
    }

    @Test
    void namedCallersGetBothFunctionUrlPermissionsAndNobodyByDefault() {
        assertThat(t.resources("AWS::Lambda::Permission").values())
                .as("no caller is granted the URL unless named")
                .noneMatch(p -> String.valueOf(p).contains("lambda:InvokeFunctionUrl")
                        || String.valueOf(p).contains("InvokedViaFunctionUrl"));

        String role = "arn:aws:iam::123456789012:role/storefront";
        TemplateView granted = Synth.template(Map.of("checkoutInvokers", "210987654321, " + role));
        // the Function URL is the live alias's (SnapStart), so its permissions name the alias
        Map<String, Object> checkout = Map.of("Ref", granted.alias(granted.function("checkout")));
        List<Map<String, Object>> permissions = granted.resources("AWS::Lambda::Permission").values().stream()
                .map(p -> map(p, "Properties"))
                .filter(p -> checkout.equals(p.get("FunctionName")))
                .toList();
        assertThat(permissions)
                .containsExactlyInAnyOrder(
                        Map.of(
                                "Action", "lambda:InvokeFunctionUrl",
                                "FunctionName", checkout,
                                "Principal", "210987654321",
                                "FunctionUrlAuthType", "AWS_IAM"),
                        Map.of(
                                "Action",
                                "lambda:InvokeFunction",
                                "FunctionName",
                                checkout,
                                "Principal",
                                "210987654321",
                                "InvokedViaFunctionUrl",
                                true),
                        Map.of(
                                "Action",
                                "lambda:InvokeFunctionUrl",
                                "FunctionName",
                                checkout,
                                "Principal",
                                role,
                                "FunctionUrlAuthType",
                                "AWS_IAM"),
                        Map.of(
                                "Action",
                                "lambda:InvokeFunction",
                                "FunctionName",
                                checkout,
                                "Principal",
                                role,
                                "InvokedViaFunctionUrl",
                                true));
        assertThatThrownBy(() -> Synth.stack(Map.of("checkoutInvokers", "storefront")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-c checkoutInvokers: 'storefront' is neither a 12-digit account id nor an IAM role or "
                        + "user ARN (arn:aws:iam::<account>:role/<name>)");
    }
}
