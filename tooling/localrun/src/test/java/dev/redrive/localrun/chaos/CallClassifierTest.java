package dev.redrive.localrun.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Calls are read from their wire form, as the sandboxes' proxies see them. */
class CallClassifierTest {

    private final CallClassifier classifier = new CallClassifier(
            "claims",
            "revenue",
            "quarantine",
            "control",
            "outbox",
            "archive",
            Set.of("http://sqs/q-dlq"),
            Set.of("http://sqs/q"));

    private static Call dynamoDb(String operation, String body) {
        return new Call(
                "dynamodb",
                "POST",
                "/",
                null,
                Map.of("x-amz-target", "DynamoDB_20120810." + operation),
                body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aConditionalPutOfAnInProgressClaimIsAClaimWithItsKeyTokenAndLease() {
        AwsCall c = classifier.classify(dynamoDb("PutItem", """
                {"TableName":"claims","Item":{"pk":{"S":"confirmation-email#e1"},"status":{"S":"IN_PROGRESS"},
                "fencingToken":{"N":"2"},"leaseExpiresAt":{"N":"1700000000000"}},
                "ConditionExpression":"attribute_not_exists(pk)"}"""));
        assertThat(c.roles()).containsExactly(CallRole.CLAIM);
        assertThat(c.key()).isEqualTo("confirmation-email#e1");
        assertThat(c.fencingToken()).isEqualTo(2);
        assertThat(c.leaseEnd()).isEqualTo(1_700_000_000_000L);
        assertThat(c.write()).isTrue();
        assertThat(c.step()).isEqualTo("claim-write");
    }

    @Test
    void completingAndReleasingAreToldApartByTheStatusTheyWrite() {
        AwsCall complete = classifier.classify(dynamoDb("UpdateItem", """
                {"TableName":"claims","Key":{"pk":{"S":"k"}},"ExpressionAttributeValues":{":token":{"N":"3"},
                ":completed":{"S":"COMPLETED"},":inProgress":{"S":"IN_PROGRESS"}}}"""));
        AwsCall release = classifier.classify(dynamoDb("UpdateItem", """
                {"TableName":"claims","Key":{"pk":{"S":"k"}},"ExpressionAttributeValues":{":token":{"N":"3"},
                ":failed":{"S":"FAILED"}}}"""));
        assertThat(complete.roles()).containsExactly(CallRole.COMPLETION);
        assertThat(complete.fencingToken()).isEqualTo(3);
        assertThat(release.roles()).containsExactly(CallRole.RELEASE);
    }

    @Test
    void theRevenueTransactionIsClaimEffectAndCompletionAtOnce() {
        AwsCall c = classifier.classify(dynamoDb("TransactWriteItems", """
                {"TransactItems":[{"Put":{"TableName":"claims","Item":{"pk":{"S":"revenue-analytics#e1"},
                "status":{"S":"COMPLETED"},"fencingToken":{"N":"1"},"leaseExpiresAt":{"N":"5"}}}},
                {"Update":{"TableName":"revenue","Key":{"pk":{"S":"revenue#2026-11-29#EUR"}}}}]}"""));
        assertThat(c.roles()).containsExactlyInAnyOrder(CallRole.CLAIM, CallRole.EFFECT, CallRole.COMPLETION);
        assertThat(c.items()).isEqualTo(2);
        assertThat(c.key()).isEqualTo("revenue-analytics#e1");
        assertThat(c.step()).isEqualTo("claim-write+effect-call+completion");
    }

    @Test
    void theEmailsPutToTheOutboxIsTheEffectWithTheKeyAndTokenOfItsMetadata() {
        // The outbox writes the key URL-encoded in its metadata (S3EmailOutbox.send), as the claim's key is not.
        AwsCall c = classifier.classify(new Call(
                "s3",
                "PUT",
                "/outbox/emails/confirmation-email%23e1.json",
                null,
                Map.of("x-amz-meta-idempotency-key", "confirmation-email%23e1", "x-amz-meta-fencing-token", "4"),
                new byte[0]));
        assertThat(c.roles()).containsExactly(CallRole.EFFECT);
        assertThat(c.key()).isEqualTo("confirmation-email#e1");
        assertThat(c.fencingToken()).isEqualTo(4);
        assertThat(c.target()).isEqualTo("outbox");
    }

    @Test
    void sqsCallsAreReadByTheQueueTheyAddress() {
        AwsCall dead = classifier.classify(new Call(
                "sqs",
                "POST",
                "/",
                null,
                Map.of("x-amz-target", "AmazonSQS.SendMessageBatch"),
                "{\"QueueUrl\":\"http://sqs/q-dlq\",\"Entries\":[]}".getBytes(StandardCharsets.UTF_8)));
        AwsCall replay = classifier.classify(new Call(
                "sqs",
                "POST",
                "/",
                null,
                Map.of("x-amz-target", "AmazonSQS.SendMessageBatch"),
                "{\"QueueUrl\":\"http://sqs/q\",\"Entries\":[]}".getBytes(StandardCharsets.UTF_8)));
        assertThat(dead.roles()).containsExactly(CallRole.DEAD_LETTER_SEND);
        assertThat(replay.roles()).containsExactly(CallRole.REPLAY_SEND);
        assertThat(dead.target()).isEqualTo("http://sqs/q-dlq");
    }
}
