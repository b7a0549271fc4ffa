package dev.redrive.functions.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.functions.checkout.ConfirmationEmailHandler;
import dev.redrive.functions.checkout.OrderEvents;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.functions.testing.SqsPollerForTests;
import dev.redrive.quarkus.RedriveConfig;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * The seed incident, exactly: an email-provider outage inside an approved maintenance window dead-letters N messages
 * (moved by the redrive policy: the evidence is on their claims); M of them had actually succeeded on a late retry;
 * K carry a payload from before a breaking schema change with no upcaster. One sweep run must replay N-M-K (applied
 * once downstream), mark M already applied sending nothing, archive K to S3 with the reason, and leave the DLQ
 * empty with all N in the ledger.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class SeedIncidentTest {

    @Inject
    SweeperHandler sweeper;

    @Inject
    ConfirmationEmailHandler emailHandler;

    @Inject
    ConfirmationEmailConsumer email;

    @Inject
    CheckoutConfig config;

    @Inject
    RedriveConfig redrive;

    final LocalAws aws = LocalAws.shared();
    final ObjectMapper json = new ObjectMapper();
    QueuePair queue;

    @BeforeEach
    void freshResources() {
        aws.reset();
        LocalResources.createTable(aws.dynamoDb(), redrive.claims().table());
        LocalResources.createQuarantineTable(aws.dynamoDb(), config.sweeper().quarantineTable());
        LocalResources.createKeyValueTable(aws.dynamoDb(), config.sweeper().controlTable());
        LocalResources.createVersionedBucket(aws, config.checkout().emailOutboxBucket());
        aws.s3().createBucket(b -> b.bucket(config.sweeper().archiveBucket()));
        queue = LocalResources.createQueuePair(aws, "order-placed-email", 4, 30);
    }

    @ParameterizedTest(name = "N={0}, M={1}, K={2}")
    @CsvSource({"60, 12, 3", "17, 5, 2"})
    void oneSweepResolvesTheIncident(int n, int m, int k) throws Exception {
        Instant now = Instant.now();
        Instant outageStart = now.minus(Duration.ofMinutes(30));
        new DynamoDbMaintenanceWindows(aws.dynamoDb(), config.sweeper().controlTable())
                .add(new MaintenanceWindow(
                        "chg-mail-001",
                        ConfirmationEmailConsumer.DEPENDENCY,
                        outageStart,
                        now.minusSeconds(1),
                        "change-board",
                        "planned mail provider maintenance"));
        DynamoDbClaimStore claims =
                new DynamoDbClaimStore(aws.dynamoDb(), redrive.claims().table());
        List<SendMessageBatchRequestEntry> deadLetters = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String eventId = "evt-seed-" + i;
            String body = i < k
                    ? OrderEvents.v2(eventId, "o-" + i, 100 + i, "EUR").replace("\"version\":2", "\"version\":0")
                    : OrderEvents.v2(eventId, "o-" + i, 100 + i, "EUR");
            failDuringTheOutage(claims, eventId, body, outageStart, i >= k && i < k + m);
            deadLetters.add(SendMessageBatchRequestEntry.builder()
                    .id("d" + (i % 10))
                    .messageBody(body)
                    .build());
            if (deadLetters.size() == 10 || i == n - 1) {
                List<SendMessageBatchRequestEntry> batch = List.copyOf(deadLetters);
                aws.sqs().sendMessageBatch(b -> b.queueUrl(queue.dlqUrl()).entries(batch));
                deadLetters.clear();
            }
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> run =
                (Map<String, Object>) sweeper.handleRequest(Map.of("source", "redrive.schedule"), null)
                        .get("order-placed-email-dlq");

        assertThat(run).extractingByKey("quarantined").isEqualTo(n);
        assertThat(run)
                .extractingByKey("replayOutcomes")
                .isEqualTo(Map.of("Sent", n - m - k, "AlreadyApplied", m, "Refused", k));
        assertThat(run).extractingByKey("archived").isEqualTo(k);
        assertThat(aws.sqs()
                        .receiveMessage(b -> b.queueUrl(queue.dlqUrl()).waitTimeSeconds(0))
                        .messages())
                .isEmpty();
        List<QuarantineRecord> ledger = ledger().ofQueue("order-placed-email", 10_000);
        assertThat(ledger).hasSize(n);
        assertThat(ledger)
                .filteredOn(r -> r.state() == QuarantineState.REPLAYED)
                .hasSize(n - k);
        assertThat(ledger).filteredOn(r -> r.note().contains("already applied")).hasSize(m);
        assertThat(ledger)
                .filteredOn(r -> r.state() == QuarantineState.ARCHIVED)
                .hasSize(k)
                .allSatisfy(r -> {
                    assertThat(r.archiveRef()).startsWith("archive/queue=order-placed-email/");
                    assertThat(r.note()).contains("no registered upcaster");
                });
        assertThat(ledger).allSatisfy(r -> {
            assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
            assertThat(r.classification().dependency()).isEqualTo(ConfirmationEmailConsumer.DEPENDENCY);
        });
        assertArchiveReadableWithReasons(ledger, k);

        SqsPollerForTests poller = new SqsPollerForTests(aws.sqs(), queue.url(), queue.arn());
        int delivered = 0;
        for (int polls = 0; polls < 200 && delivered < n - m - k; polls++) {
            delivered += poller.pollOnce(emailHandler, 1);
        }
        assertThat(delivered).as("exactly the replays reach the consumer").isEqualTo(n - m - k);
        var versions = aws.s3()
                .listObjectVersions(b -> b.bucket(config.checkout().emailOutboxBucket()))
                .versions();
        assertThat(versions).hasSize(n - m - k);
        assertThat(versions.stream().map(v -> v.key()).distinct().count()).isEqualTo(n - m - k);
        for (int i = k; i < n; i++) {
            assertThat(claims.find(new IdempotencyKey(email.name(), "evt-seed-" + i), Instant.now())
                            .orElseThrow()
                            .status()
                            .name())
                    .isEqualTo("COMPLETED");
        }
    }

    /** What the consumer records on a claim while the provider refuses it: four failed attempts, or a late success. */
    private void failDuringTheOutage(
            DynamoDbClaimStore claims, String eventId, String body, Instant outageStart, boolean lateRetrySucceeds) {
        IdempotencyKey key = new IdempotencyKey(email.name(), eventId);
        String hash;
        try {
            hash = PayloadFingerprint.of(email.parse(new IncomingMessage("m", null, body, Map.of(), 1, "", null))
                    .canonicalPayload());
        } catch (RuntimeException unreadableToday) {
            hash = PayloadFingerprint.of(body); // the pre-migration consumer's own fingerprint
        }
        FailureRecord previous = null;
        for (int attempt = 1; attempt <= 4; attempt++) {
            Instant at = outageStart.plus(Duration.ofMinutes(attempt));
            ClaimOutcome.Acquired claim = (ClaimOutcome.Acquired) claims.claim(
                    LeasePolicy.DEFAULT.request(
                            key, hash, new MessageOrigin(queue.arn(), "m-" + eventId), at, Duration.ofSeconds(30)),
                    at);
            previous = FailureRecord.next(
                    previous,
                    new Classification(
                            FailureClass.TRANSIENT,
                            "SlowDown",
                            "SlowDown (HTTP 503) from email-provider",
                            ConfirmationEmailConsumer.DEPENDENCY),
                    attempt,
                    at,
                    queue.arn());
            claims.release(key, claim.fencingToken(), previous, at);
        }
        if (lateRetrySucceeds) {
            Instant late = outageStart.plus(Duration.ofMinutes(20));
            ClaimOutcome.Acquired claim = (ClaimOutcome.Acquired) claims.claim(
                    LeasePolicy.DEFAULT.request(
                            key, hash, new MessageOrigin(queue.arn(), "m2-" + eventId), late, Duration.ofSeconds(30)),
                    late);
            claims.complete(key, claim.fencingToken(), "late retry", late);
        }
    }

    private void assertArchiveReadableWithReasons(List<QuarantineRecord> ledger, int k) throws Exception {
        List<String> keys = aws
                .s3()
                .listObjectsV2(b -> b.bucket(config.sweeper().archiveBucket()).prefix("archive/"))
                .contents()
                .stream()
                .map(o -> o.key())
                .toList();
        List<JsonNode> lines = new ArrayList<>();
        for (String objectKey : keys) {
            var object = aws.s3()
                    .getObject(b -> b.bucket(config.sweeper().archiveBucket()).key(objectKey));
            assertThat(object.response().serverSideEncryptionAsString()).isEqualTo("aws:kms");
            assertThat(object.response().ssekmsKeyId())
                    .isEqualTo(config.sweeper().archiveKmsKeyId().orElseThrow());
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(new GZIPInputStream(object), StandardCharsets.UTF_8))) {
                in.lines().forEach(line -> {
                    try {
                        lines.add(json.readTree(line));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
            }
        }
        assertThat(lines).hasSize(k).allSatisfy(l -> {
            assertThat(l.get("archiveReason").asText()).contains("incompatible");
            assertThat(l.get("payload").asText()).contains("\"version\":0");
            assertThat(l.get("audit").size()).isGreaterThanOrEqualTo(4);
        });
        assertThat(lines.stream().map(l -> l.get("quarantineId").asText()).toList())
                .containsExactlyInAnyOrderElementsOf(ledger.stream()
                        .filter(r -> r.state() == QuarantineState.ARCHIVED)
                        .map(QuarantineRecord::id)
                        .toList());
    }

    private DynamoDbQuarantineLedger ledger() {
        return new DynamoDbQuarantineLedger(
                aws.dynamoDb(),
                config.sweeper().quarantineTable(),
                config.sweeper().controlTable(),
                java.time.Clock.systemUTC());
    }
}
