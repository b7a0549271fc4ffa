package dev.redrive.functions.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.clients.EffectClients;
import dev.redrive.checkout.EmailOutbox;
import dev.redrive.checkout.S3EmailOutbox;
import dev.redrive.core.failure.ClassifiedException;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The email outbox on local S3: a 412 on its create-only write means "already sent" only when the email there is this
 * key's, with this content; anything else under the key is a conflict a person must look at.
 */
@LocalAwsTest
class S3EmailOutboxTest {

    final LocalAws aws = LocalAws.shared();
    final ObjectMapper json = new ObjectMapper();
    String bucket;
    S3EmailOutbox outbox;

    @BeforeEach
    void bucket() {
        bucket = "outbox-" + UUID.randomUUID().toString().substring(0, 8);
        LocalResources.createVersionedBucket(aws, bucket);
        // The client production sends with: the retry rule and timeouts of an effect, on local S3.
        outbox = new S3EmailOutbox(EffectClients.s3Like(aws.s3(), true, EffectClients.Settings.DEFAULT), bucket, json);
    }

    static EmailOutbox.Email email(String key, long token, String body) {
        return new EmailOutbox.Email(
                key, token, "ada@example.com", "Your order o-1 is confirmed", body, java.time.Duration.ofSeconds(20));
    }

    @Test
    void theSameEmailSentAgainByANewerTokenIsAlreadySent() {
        outbox.send(email("confirmation-email#evt-1", 1, "Thanks"));

        String again = outbox.send(email("confirmation-email#evt-1", 2, "Thanks"));

        assertThat(again).startsWith("already sent: ");
        assertThat(versions("confirmation-email#evt-1")).isEqualTo(1);
    }

    @Test
    void anotherEmailUnderTheSameKeyIsAConflictNotAlreadySent() {
        outbox.send(email("confirmation-email#evt-2", 1, "Thanks for 10.00 EUR"));

        assertThatThrownBy(() -> outbox.send(email("confirmation-email#evt-2", 2, "Thanks for 99.00 EUR")))
                .isInstanceOfSatisfying(ClassifiedException.class, e -> {
                    assertThat(e.failureClass()).isEqualTo(FailureClass.PERMANENT);
                    assertThat(e.errorType()).isEqualTo("EmailConflict");
                    assertThat(e.getMessage()).doesNotContain("99.00").doesNotContain("ada@example.com");
                });
        assertThat(versions("confirmation-email#evt-2")).isEqualTo(1);
    }

    @Test
    void anObjectTheOutboxDidNotWriteIsAConflict() {
        aws.s3()
                .putObject(
                        b -> b.bucket(bucket).key(S3EmailOutbox.objectKey("confirmation-email#evt-3")),
                        RequestBody.fromString("{\"something\":\"else\"}"));

        assertThatThrownBy(() -> outbox.send(email("confirmation-email#evt-3", 1, "Thanks")))
                .isInstanceOfSatisfying(
                        ClassifiedException.class,
                        e -> assertThat(e.errorType()).isEqualTo("EmailConflict"));
    }

    @Test
    void anEmailWrittenBeforeFingerprintsWithTheSameContentIsAlreadySent() throws Exception {
        String key = "confirmation-email#evt-4";
        Map<String, Object> document = new java.util.LinkedHashMap<>();
        document.put("idempotencyKey", key);
        document.put("fencingToken", 1);
        document.put("to", "ada@example.com");
        document.put("subject", "Your order o-1 is confirmed");
        document.put("body", "Thanks");
        aws.s3()
                .putObject(
                        b -> b.bucket(bucket)
                                .key(S3EmailOutbox.objectKey(key))
                                .metadata(Map.of("idempotency-key", key, "fencing-token", "1")),
                        RequestBody.fromBytes(json.writeValueAsBytes(document)));

        assertThat(outbox.send(email(key, 2, "Thanks"))).startsWith("already sent: ");
    }

    @Test
    void theLongestProducerKeyStillMapsToOneValidObjectKey() {
        String longest = "confirmation-email#" + "é".repeat(512); // 1024 bytes of producer key, 3 bytes encoded each

        String objectKey = S3EmailOutbox.objectKey(longest);

        assertThat(objectKey.getBytes(StandardCharsets.UTF_8).length)
                .as("S3 refuses object keys over 1024 bytes")
                .isLessThanOrEqualTo(1024);
        assertThat(objectKey).isNotEqualTo(S3EmailOutbox.objectKey(longest.substring(0, longest.length() - 1)));
        assertThat(S3EmailOutbox.objectKey("confirmation-email#evt-5"))
                .as("ordinary keys keep their object key")
                .isEqualTo("emails/confirmation-email%23evt-5.json");
        assertThat(outbox.send(email(longest, 1, "Thanks"))).startsWith("s3://");
        assertThat(outbox.send(email(longest, 2, "Thanks"))).startsWith("already sent: ");
    }

    private int versions(String idempotencyKey) {
        String objectKey = S3EmailOutbox.objectKey(idempotencyKey);
        return (int) aws.s3().listObjectVersions(b -> b.bucket(bucket).prefix(objectKey)).versions().stream()
                .filter(v -> v.key().equals(objectKey))
                .count();
    }

    @Test
    void noCallStartsOnceTheEffectsDeadlineHasPassed() {
        EmailOutbox.Email late = new EmailOutbox.Email(
                "confirmation-email#evt-6", 1, "ada@example.com", "s", "b", java.time.Duration.ZERO);

        assertThatThrownBy(() -> outbox.send(late)).isInstanceOfSatisfying(ClassifiedException.class, e -> {
            assertThat(e.failureClass()).isEqualTo(FailureClass.TRANSIENT);
            assertThat(e.errorType()).isEqualTo("EffectDeadlinePassed");
        });
        assertThat(versions("confirmation-email#evt-6")).isZero();
    }
}
