package dev.redrive.aws.payload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.core.payload.ClaimCheckMissing;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.testing.ScriptedConsumer;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A consumer reading claim checks as it does on AWS, where its role has no {@code s3:ListBucket} on a producer's bucket
 * (S3 then answers 403 AccessDenied for a missing key: {@link S3WithoutListBucket}): claims on DynamoDB (moto),
 * payloads on S3 (moto) through the stand-in, the real SDK clients.
 */
class ClaimCheckConsumerOnAwsTest {

    static final Duration REMAINING = Duration.ofSeconds(30);

    private static LocalAws aws;
    private static String bucket;
    private static String claimsTable;

    private S3WithoutListBucket asOnAws;
    private S3Client s3;
    private final ScriptedConsumer consumer = new ScriptedConsumer();

    @BeforeAll
    static void resources() {
        aws = LocalAws.shared();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        bucket = "claim-checks-aws-" + suffix;
        claimsTable = "claims-aws-" + suffix;
        aws.s3().createBucket(b -> b.bucket(bucket));
        LocalResources.createTable(aws.dynamoDb(), claimsTable);
    }

    @BeforeEach
    void standIn() throws IOException {
        asOnAws = new S3WithoutListBucket(aws);
        s3 = asOnAws.client();
    }

    @AfterEach
    void close() {
        s3.close();
        asOnAws.close();
    }

    private MessageProcessor processor(ClaimCheckCleanup cleanup) {
        return new MessageProcessor(
                        new DynamoDbClaimStore(aws.dynamoDb(), claimsTable),
                        LeasePolicy.DEFAULT,
                        new FullJitterBackoff(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(30)),
                        new Mulberry32(7),
                        Clock.systemUTC(),
                        ProcessingListener.NONE)
                .withClaimChecks(new S3ClaimChecks(s3, bucket, Set.of(), "", null), cleanup);
    }

    private IncomingMessage pointerTo(String payload, int receiveCount, String messageId) {
        ClaimChecks.ClaimCheck check = new S3ClaimChecks(s3, bucket).checkIn(payload);
        return new IncomingMessage(
                messageId, "rh-" + receiveCount, check.body(), check.attributes(), receiveCount, "orders", null);
    }

    @Test
    void afterApplyTheRedeliveryOfAnAppliedMessageIsADuplicateThoughS3Answers403() {
        String key = "order-" + UUID.randomUUID();
        IncomingMessage first = pointerTo(key + "|big", 1, "m-1");
        MessageProcessor p = processor(ClaimCheckCleanup.AFTER_APPLY);
        assertThat(p.process(consumer, first, () -> REMAINING)).isInstanceOf(MessageOutcome.Applied.class);
        IncomingMessage again = new IncomingMessage(
                first.messageId(), "rh-2", first.body(), first.attributes(), 2, first.sourceQueue(), null);

        MessageOutcome outcome = p.process(consumer, again, () -> REMAINING);

        assertThat(outcome).isEqualTo(new MessageOutcome.Duplicate("scripted#" + key));
        assertThat(consumer.applied(key)).isEqualTo(1);
    }

    @Test
    void aMissingPayloadThatIsNoDuplicateIsASchemaDeadLetterSayingGoneOrForbidden() {
        String key = "order-" + UUID.randomUUID();
        IncomingMessage message = pointerTo(key + "|big", 1, "m-2");
        new S3ClaimChecks(aws.s3(), bucket).discard(message.body(), message.attributes());

        MessageOutcome outcome = processor(ClaimCheckCleanup.LIFECYCLE).process(consumer, message, () -> REMAINING);

        assertThat(asOnAws.denied()).isPositive();
        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
            assertThat(d.failure().failureClass())
                    .as("no PERMANENT AccessDenied: the payload is gone, or this role may not read it")
                    .isEqualTo(FailureClass.SCHEMA);
            assertThat(d.failure().classification().errorType()).isEqualTo(ClaimCheckMissing.ERROR_TYPE);
            assertThat(d.failure().classification().reason()).contains("AccessDenied");
        });
        assertThat(consumer.applied(key)).isZero();
    }
}
