package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConsumerQueuesTest {

    private final TemplateView t = Synth.defaults();

    @ParameterizedTest
    @ValueSource(strings = {"confirmation-email", "revenue-analytics"})
    void sourceQueueRedrivesToItsOwnDeadLetterQueueAfterTenReceives(String consumer) {
        Map<String, Object> source = t.properties(t.queue("redrive-" + consumer));
        Map<String, Object> policy = map(source, "RedrivePolicy");

        assertThat(policy.get("maxReceiveCount")).isEqualTo(10);
        assertThat(policy.get("deadLetterTargetArn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of(t.queue("redrive-" + consumer + "-dlq"), "Arn")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"confirmation-email", "revenue-analytics"})
    void visibilityTimeoutIsAtLeastSixTimesTheTimeoutOfTheFunctionConsumingIt(String consumer) {
        String queue = t.queue("redrive-" + consumer);
        Map<String, Object> mapping = t.resources("AWS::Lambda::EventSourceMapping").values().stream()
                .map(r -> map(r, "Properties"))
                .filter(p -> String.valueOf(p.get("EventSourceArn")).contains(queue))
                .findFirst()
                .orElseThrow();
        String function = t.invokedFunction(mapping.get("FunctionName"));
        int timeout = (Integer) t.properties(function).get("Timeout");

        assertThat(timeout).isEqualTo(30);
        assertThat((Integer) t.properties(queue).get("VisibilityTimeout")).isGreaterThanOrEqualTo(6 * timeout);
    }

    @ParameterizedTest
    @ValueSource(strings = {"confirmation-email", "revenue-analytics"})
    void deadLetterQueueKeepsMessagesFourteenDaysLongerThanItsSource(String consumer) {
        int source = (Integer) t.properties(t.queue("redrive-" + consumer)).get("MessageRetentionPeriod");
        int deadLetter =
                (Integer) t.properties(t.queue("redrive-" + consumer + "-dlq")).get("MessageRetentionPeriod");

        assertThat(source).isEqualTo(4 * 24 * 3600);
        assertThat(deadLetter).isEqualTo(14 * 24 * 3600).isGreaterThan(source);
    }

    @ParameterizedTest
    @ValueSource(strings = {"confirmation-email", "revenue-analytics"})
    void deadLetterQueueAcceptsRedrivesOnlyFromItsOwnSource(String consumer) {
        Map<String, Object> allow = map(t.properties(t.queue("redrive-" + consumer + "-dlq")), "RedriveAllowPolicy");

        assertThat(allow.get("redrivePermission")).isEqualTo("byQueue");
        List<?> sources = (List<?>) allow.get("sourceQueueArns");
        assertThat(sources).hasSize(1);
        assertThat(String.valueOf(sources.get(0))).endsWith(":redrive-" + consumer + "]]}");
    }

    @Test
    void everyDeadLetterQueueIsTheTargetOfARedrivePolicyOrOfTheSchedule() {
        Set<String> targets = t.resources("AWS::SQS::Queue").values().stream()
                .map(r -> map(r, "Properties").get("RedrivePolicy"))
                .filter(p -> p != null)
                .map(p -> String.valueOf(TemplateView.cast(p).get("deadLetterTargetArn")))
                .collect(Collectors.toSet());
        t.resources("AWS::Scheduler::Schedule")
                .values()
                .forEach(s -> targets.add(String.valueOf(map(map(map(s, "Properties"), "Target"), "DeadLetterConfig")
                        .get("Arn"))));

        Set<String> deadLetterQueues = t.resources("AWS::SQS::Queue").keySet().stream()
                .filter(id -> String.valueOf(t.properties(id).get("QueueName")).endsWith("-dlq"))
                .collect(Collectors.toSet());
        assertThat(deadLetterQueues)
                .as("2 consumers' and 3 schedules': the sweeper's, the outbox sweep's, the reconciliation's")
                .hasSize(5);
        assertThat(deadLetterQueues).allSatisfy(id -> assertThat(targets).anyMatch(arn -> arn.contains(id)));
    }

    @Test
    void everyQueueAnEventSourceConsumesHasADeadLetterQueue() {
        List<String> consumed = t.resources("AWS::Lambda::EventSourceMapping").values().stream()
                .map(r -> (String)
                        ((List<?>) map(map(r, "Properties"), "EventSourceArn").get("Fn::GetAtt")).get(0))
                .filter(id -> t.resources("AWS::SQS::Queue").containsKey(id))
                .toList();

        assertThat(consumed)
                .as("the consumers' queues; the relay's source is the orders table's stream")
                .hasSize(2);
        assertThat(consumed).allSatisfy(id -> assertThat(t.properties(id)).containsKey("RedrivePolicy"));
    }

    @Test
    void everyQueueIsEncryptedWithTheCustomerManagedKeyAndRefusesPlainHttp() {
        String key = t.resources("AWS::KMS::Key").keySet().iterator().next();
        assertThat(t.resources("AWS::SQS::Queue"))
                .as("2 consumers' queues and DLQs, 3 schedules' DLQs, the relay's failure queue")
                .hasSize(8)
                .allSatisfy((id, queue) -> assertThat(map(queue, "Properties").get("KmsMasterKeyId"))
                        .isEqualTo(Map.of("Fn::GetAtt", List.of(key, "Arn"))));
        String policies = String.valueOf(t.resources("AWS::SQS::QueuePolicy"));
        assertThat(t.resources("AWS::SQS::Queue").keySet())
                .allSatisfy(id -> assertThat(policies).contains(id));
        assertThat(t.resources("AWS::SQS::QueuePolicy").values())
                .allSatisfy(p ->
                        assertThat(String.valueOf(p)).contains("Effect=Deny").contains("aws:SecureTransport=false"));
    }
}
