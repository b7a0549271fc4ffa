package dev.redrive.aws.payload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazon.sqs.javamessaging.AmazonSQSExtendedClient;
import com.amazon.sqs.javamessaging.ExtendedClientConfiguration;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsReplaySender;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.payload.ClaimCheckForbidden;
import dev.redrive.core.payload.ClaimCheckMissing;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.payload.ClaimChecksContract;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Claim checks on S3 (moto): the port's contract, and interoperation with the Amazon SQS Extended Client Library
 * itself (2.1.2 on the SDK 2.57.8 of this build): what the library sends, Redrive reads; what Redrive checks in, the
 * library receives.
 */
class S3ClaimChecksTest extends ClaimChecksContract {

    private static LocalAws aws;
    private static String bucket;
    private static S3ClaimChecks store;

    @BeforeAll
    static void bucket() {
        aws = LocalAws.shared();
        bucket = "claim-checks-" + UUID.randomUUID().toString().substring(0, 8);
        aws.s3().createBucket(b -> b.bucket(bucket));
        store = new S3ClaimChecks(aws.s3(), bucket, Set.of(), "redrive/", null);
    }

    @Override
    protected ClaimChecks store() {
        return store;
    }

    @Test
    void aMessageTheLibrarySendsIsReadWholeByRedrive() {
        String queue = queue();
        String payload = payloadOf(FIVE_MIB);
        AmazonSQSExtendedClient library = new AmazonSQSExtendedClient(
                aws.sqs(), new ExtendedClientConfiguration().withPayloadSupportEnabled(aws.s3(), bucket));
        library.sendMessage(b -> b.queueUrl(queue).messageBody(payload));

        Message raw = receiveRaw(queue);

        Map<String, String> attributes = strings(raw.messageAttributes());
        assertThat(ClaimCheckPointer.marks(attributes.keySet())).isTrue();
        assertThat(ClaimCheckPointer.parse(raw.body())).isPresent();
        assertThat(store.isClaimCheck(raw.body(), attributes)).isTrue();
        assertThat(store.payloadOf(raw.body(), attributes)).isEqualTo(payload);
    }

    @Test
    void aClaimCheckRedriveSendsIsReceivedWholeByTheLibrary() {
        String queue = queue();
        String payload = payloadOf(FIVE_MIB);
        ClaimChecks.ClaimCheck check = store.checkIn(payload);
        Map<String, MessageAttributeValue> attributes = new HashMap<>();
        check.attributes()
                .forEach((name, value) -> attributes.put(
                        name,
                        MessageAttributeValue.builder()
                                .dataType(ClaimCheckPointer.SIZE_DATA_TYPE)
                                .stringValue(value)
                                .build()));
        aws.sqs().sendMessage(b -> b.queueUrl(queue).messageBody(check.body()).messageAttributes(attributes));

        AmazonSQSExtendedClient library = new AmazonSQSExtendedClient(
                aws.sqs(), new ExtendedClientConfiguration().withPayloadSupportEnabled(aws.s3(), bucket));
        Message received = library.receiveMessage(
                        b -> b.queueUrl(queue).waitTimeSeconds(5).messageAttributeNames("All"))
                .messages()
                .get(0);

        assertThat(received.body()).isEqualTo(payload);
    }

    @Test
    void aClaimCheckTheReplaySenderSendsAgainIsReceivedWholeByTheLibrary() {
        String url = queue();
        String name = url.substring(url.lastIndexOf('/') + 1);
        String payload = payloadOf(FIVE_MIB);
        ClaimChecks.ClaimCheck check = store.checkIn(payload);
        // as a ledger from before attributes kept their types kept them: as text
        Map<String, MessageAttribute> asQuarantined = new HashMap<>(MessageAttribute.ofStrings(check.attributes()));
        asQuarantined.put(ReplayMarker.ATTRIBUTE, MessageAttribute.ofString("q-1:1"));
        QueueDirectory directory = new QueueDirectory(aws.sqs(), Optional.empty());
        directory.register(name, url);

        new SqsReplaySender(aws.sqs(), directory) // in a batch, as the replay service sends
                .sendAll(name, List.of(new ReplaySender.Outgoing(check.body(), asQuarantined)));

        Message raw = receiveRaw(url);
        assertThat(raw.messageAttributes().get(ClaimCheckPointer.SIZE_ATTRIBUTE).dataType())
                .as("sent as the library sends it")
                .isEqualTo(ClaimCheckPointer.SIZE_DATA_TYPE);
        aws.sqs()
                .changeMessageVisibility(
                        b -> b.queueUrl(url).receiptHandle(raw.receiptHandle()).visibilityTimeout(0));
        AmazonSQSExtendedClient library = new AmazonSQSExtendedClient(
                aws.sqs(), new ExtendedClientConfiguration().withPayloadSupportEnabled(aws.s3(), bucket));
        Message received = library.receiveMessage(
                        b -> b.queueUrl(url).waitTimeSeconds(5).messageAttributeNames("All"))
                .messages()
                .get(0);
        assertThat(received.body().length()).isEqualTo(payload.length());
        assertThat(received.body().equals(payload)).as("the whole payload").isTrue();
    }

    @Test
    void withoutABucketAClaimCheckIsRefusedSayingSoAndAnyOtherBodyIsItsPayload() {
        ClaimChecks none = ClaimCheckSettings.NONE.on(aws.s3());
        String pointer = new ClaimCheckPointer(bucket, "k").toBody();

        assertThatThrownBy(() -> none.payloadOf(pointer, Map.of(ClaimCheckPointer.SIZE_ATTRIBUTE, "10")))
                .isInstanceOf(ClaimCheckMissing.class)
                .hasMessageContaining("no claim-check bucket is configured")
                .hasMessageContaining(ClaimCheckSettings.BUCKET_VARIABLE);
        assertThat(none.payloadOf("{\"plain\":1}", Map.of())).isEqualTo("{\"plain\":1}");
        assertThat(ClaimCheckSettings.NONE.forCheckIn(aws.s3())).isSameAs(ClaimChecks.NONE);
        ClaimChecks configured = new ClaimCheckSettings(Optional.of(bucket), List.of(), Optional.empty()).on(aws.s3());
        ClaimChecks.ClaimCheck check = configured.checkIn("hello");
        assertThat(configured.payloadOf(check.body(), check.attributes())).isEqualTo("hello");
    }

    @Test
    void aPointerToABucketItWasNotToldAboutIsRefusedWithoutReadingIt() {
        String other = "elsewhere-" + UUID.randomUUID().toString().substring(0, 8);
        aws.s3().createBucket(b -> b.bucket(other));
        aws.s3()
                .putObject(
                        b -> b.bucket(other).key("secret"),
                        software.amazon.awssdk.core.sync.RequestBody.fromString("x"));
        String body = new ClaimCheckPointer(other, "secret").toBody();

        assertThatThrownBy(() -> store.payloadOf(body, Map.of(ClaimCheckPointer.SIZE_ATTRIBUTE, "1")))
                .isInstanceOf(ClaimCheckMissing.class)
                .hasMessageContaining(other);
        assertThat(new S3ClaimChecks(aws.s3(), bucket, Set.of(other), "", null)
                        .payloadOf(body, Map.of(ClaimCheckPointer.LEGACY_SIZE_ATTRIBUTE, "1")))
                .isEqualTo("x");
    }

    @Test
    void withoutListBucketAMissingPayloadIsGoneOrForbiddenWithItsReasonNotAnError() throws IOException {
        try (S3WithoutListBucket asOnAws = new S3WithoutListBucket(aws);
                S3Client s3 = asOnAws.client()) {
            S3ClaimChecks checks = new S3ClaimChecks(s3, bucket, Set.of(), "redrive/", null);
            ClaimChecks.ClaimCheck check = checks.checkIn("{\"eventId\":\"evt-403\"}");
            assertThat(checks.payloadOf(check.body(), check.attributes())).isEqualTo("{\"eventId\":\"evt-403\"}");
            checks.discard(check.body(), check.attributes());

            assertThatThrownBy(() -> checks.payloadOf(check.body(), check.attributes()))
                    .isInstanceOf(ClaimCheckMissing.class)
                    .isInstanceOf(ClaimCheckForbidden.class)
                    .hasMessageContaining("AccessDenied")
                    .hasMessageContaining("s3:ListBucket");
            ClaimChecks.Read read = checks.read(check.body(), check.attributes());
            assertThat(read.payload()).isNull();
            assertThat(read.missing()).contains("AccessDenied");
            assertThat(read.forbidden())
                    .as("gone or forbidden: the answer does not say which")
                    .isTrue();
            assertThat(asOnAws.denied())
                    .as("both reads were answered 403, as AWS does")
                    .isEqualTo(2);
        }
    }

    private static String queue() {
        String name = "claim-checks-" + UUID.randomUUID().toString().substring(0, 8);
        return aws.sqs().createQueue(b -> b.queueName(name)).queueUrl();
    }

    private static Message receiveRaw(String queue) {
        return aws.sqs()
                .receiveMessage(b -> b.queueUrl(queue)
                        .waitTimeSeconds(5)
                        .messageAttributeNames("All")
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                .messages()
                .get(0);
    }

    private static Map<String, String> strings(Map<String, MessageAttributeValue> attributes) {
        Map<String, String> values = new HashMap<>();
        attributes.forEach((name, value) -> values.put(name, value.stringValue()));
        return values;
    }
}
