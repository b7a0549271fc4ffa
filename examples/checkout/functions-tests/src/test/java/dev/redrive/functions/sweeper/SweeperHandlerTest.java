package dev.redrive.functions.sweeper;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.ledger.DynamoDbReplayStats;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerTransition;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.functions.checkout.ConfirmationEmailHandler;
import dev.redrive.functions.checkout.OrderEvents;
import dev.redrive.functions.config.CheckoutConfig;
import dev.redrive.functions.testing.AdjustableClock;
import dev.redrive.functions.testing.SqsPollerForTests;
import dev.redrive.quarkus.RedriveConfig;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTestResource;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The DLQ sweeper end to end on local AWS: the real handler, the real consumer it replays to, DynamoDB ledger and
 * leases, SQS queues, the S3 archive.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class SweeperHandlerTest {

    @Inject
    SweeperHandler sweeper;

    @Inject
    ConfirmationEmailHandler emailHandler;

    @Inject
    ReplayService replays;

    @Inject
    CheckoutConfig config;

    @Inject
    RedriveConfig redrive;

    @Inject
    AdjustableClock clock;

    final LocalAws aws = LocalAws.shared();
    final ObjectMapper json = new ObjectMapper();
    QueuePair queue;
    DynamoDbQuarantineLedger ledger;

    @BeforeEach
    void freshResources() {
        clock.reset();
        queue = SweeperTestResources.fresh(aws, config, redrive);
        ledger = new DynamoDbQuarantineLedger(
                aws.dynamoDb(),
                config.sweeper().quarantineTable(),
                config.sweeper().controlTable(),
                clock);
    }

    @AfterEach
    void putTheClockBack() {
        clock.reset();
    }

    @Test
    void theAutomationReplaysOnlyWhatAWindowApprovesAndMarksWhatWasAlreadyApplied() {
        Instant now = clock.instant();
        windows()
                .add(new MaintenanceWindow(
                        "chg-42",
                        ConfirmationEmailConsumer.DEPENDENCY,
                        now.minusSeconds(3600),
                        now.minusSeconds(1),
                        "oncall-lead",
                        "mail provider maintenance (over)"));
        for (int i = 1; i <= 3; i++) {
            deadLetter(
                    OrderEvents.v2("evt-out-" + i, "o-" + i, 100, "EUR"),
                    FailureClass.TRANSIENT,
                    "Timeout",
                    ConfirmationEmailConsumer.DEPENDENCY,
                    now.minusSeconds(600));
        }
        String applied = OrderEvents.v2("evt-applied", "o-4", 100, "EUR");
        assertThat(emailHandler
                        .handleRequest(
                                new SqsPollerForTests(aws.sqs(), queue.url(), queue.arn())
                                        .event(List.of(Message.builder()
                                                .messageId("m-4")
                                                .receiptHandle("r")
                                                .body(applied)
                                                .build())),
                                null)
                        .getBatchItemFailures())
                .isEmpty();
        deadLetter(
                applied,
                FailureClass.TRANSIENT,
                "Timeout",
                ConfirmationEmailConsumer.DEPENDENCY,
                now.minusSeconds(600));
        deadLetter(
                OrderEvents.v1("evt-v1", "o-5", 100, "EUR"),
                FailureClass.SCHEMA,
                "OutdatedVersion",
                null,
                now.minusSeconds(600));
        aws.sqs()
                .sendMessage(
                        b -> b.queueUrl(queue.dlqUrl()).messageBody(OrderEvents.v2("evt-crash", "o-6", 100, "EUR")));
        deadLetter(
                OrderEvents.v2("evt-other", "o-7", 100, "EUR"),
                FailureClass.TRANSIENT,
                "Timeout",
                "payments",
                now.minusSeconds(600));

        Map<String, Object> summary = sweep();

        assertThat(summary).extractingByKey("quarantined").isEqualTo(7);
        assertThat(summary).extractingByKey("replayOutcomes").isEqualTo(Map.of("Sent", 3, "AlreadyApplied", 1));
        assertThat(aws.sqs()
                        .receiveMessage(b -> b.queueUrl(queue.dlqUrl()).waitTimeSeconds(0))
                        .messages())
                .as("every dead letter left the queue once durable")
                .isEmpty();
        List<Message> replayed = drain(queue.url());
        assertThat(replayed)
                .hasSize(3)
                .allSatisfy(m -> assertThat(m.messageAttributes()).containsKey(ReplayMarker.ATTRIBUTE));
        Map<QuarantineState, List<QuarantineRecord>> byState = new HashMap<>();
        for (QuarantineState s : QuarantineState.values()) {
            byState.put(s, ledger.inState(s, Optional.of("order-placed-email"), 50));
        }
        assertThat(byState.get(QuarantineState.REPLAYED)).hasSize(4);
        assertThat(byState.get(QuarantineState.REPLAYED))
                .filteredOn(r -> r.note().contains("already applied"))
                .singleElement()
                .satisfies(r -> assertThat(r.idempotencyKey()).isEqualTo("confirmation-email#evt-applied"));
        assertThat(byState.get(QuarantineState.QUARANTINED))
                .extracting(r -> r.classification().failureClass())
                .containsExactlyInAnyOrder(FailureClass.SCHEMA, FailureClass.POISON, FailureClass.TRANSIENT);
        assertThat(byState.get(QuarantineState.REPLAYED))
                .allSatisfy(
                        r -> assertThat(r.audit()).extracting(AuditEntry::actor).containsOnly(Actor.AUTOMATION));
    }

    @Test
    void aWindowThatHoldsItsBreakerIsHeldByTheFirstSweepAfterItsStartAndNotWrittenAgain() {
        Instant now = clock.instant();
        Instant end = now.plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS);
        windows()
                .add(new MaintenanceWindow(
                        "chg-43",
                        ConfirmationEmailConsumer.DEPENDENCY,
                        now.plusSeconds(60),
                        end,
                        "oncall-lead",
                        "mail provider maintenance, announced",
                        true));
        DynamoDbBreakerStore breakers =
                new DynamoDbBreakerStore(aws.dynamoDb(), redrive.breakers().table());

        Map<String, Object> beforeItsStart = sweeper.handleRequest(Map.of("source", "redrive.schedule"), null);

        assertThat(beforeItsStart).doesNotContainKey("breakersHeldForWindows");
        assertThat(breakers.read(ConfirmationEmailConsumer.DEPENDENCY)).isEqualTo(BreakerState.closed());

        clock.jump(Duration.ofSeconds(90));
        Map<String, Object> afterItsStart = sweeper.handleRequest(Map.of("source", "redrive.schedule"), null);

        assertThat(afterItsStart).containsEntry("breakersHeldForWindows", List.of("chg-43"));
        BreakerState held = breakers.read(ConfirmationEmailConsumer.DEPENDENCY);
        assertThat(held.status()).isEqualTo(BreakerState.Status.OPEN);
        assertThat(held.openUntil()).isEqualTo(end);
        assertThat(breakers.history(ConfirmationEmailConsumer.DEPENDENCY))
                .singleElement()
                .extracting(BreakerTransition::reason)
                .isEqualTo("held open by maintenance window chg-43 until its end, " + end);

        clock.jump(Duration.ofMinutes(5));
        Map<String, Object> later = sweeper.handleRequest(Map.of("source", "redrive.schedule"), null);

        assertThat(later).doesNotContainKey("breakersHeldForWindows");
        assertThat(breakers.read(ConfirmationEmailConsumer.DEPENDENCY)).isEqualTo(held);
    }

    @Test
    void aPersonReplaysAnOlderPayloadThroughTheUpcasterAndTheConsumerAppliesItOnce() {
        deadLetter(
                OrderEvents.v1("evt-v1", "o-8", 2500, "EUR"),
                FailureClass.SCHEMA,
                "OutdatedVersion",
                null,
                clock.instant());
        sweep();
        QuarantineRecord waiting =
                ledger.inState(QuarantineState.QUARANTINED, Optional.empty(), 1).get(0);

        ReplayOutcome outcome =
                replays.replay(waiting.id(), Actor.person("ada"), "v1 upcaster shipped", Optional.empty(), false);
        new SqsPollerForTests(aws.sqs(), queue.url(), queue.arn()).pollOnce(emailHandler, 1);
        ReplayOutcome again = replays.replay(waiting.id(), Actor.person("ada"), "twice?", Optional.empty(), false);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        ReplayOutcome.Sent.class, s -> assertThat(s.upcast()).isEqualTo("upcast v1 to v2"));
        assertThat(again).isInstanceOf(ReplayOutcome.NotReplayable.class);
        assertThat(aws.s3()
                        .listObjectsV2(b -> b.bucket(config.checkout().emailOutboxBucket()))
                        .contents())
                .singleElement()
                .satisfies(o -> assertThat(o.key()).contains("evt-v1"));
        QuarantineRecord done = ledger.find(waiting.id()).orElseThrow();
        assertThat(done.state()).isEqualTo(QuarantineState.REPLAYED);
        assertThat(done.audit()).extracting(AuditEntry::actor).contains(Actor.person("ada"));
        assertThat(done.audit())
                .extracting(AuditEntry::reason)
                .anySatisfy(r -> assertThat(r).contains("upcast v1 to v2"));
    }

    @Test
    void aReplayThatDeadLettersAgainReopensItsRecordAndCountsAsAFailedReplay() {
        Instant now = clock.instant();
        windows()
                .add(new MaintenanceWindow(
                        "chg-7",
                        ConfirmationEmailConsumer.DEPENDENCY,
                        now.minusSeconds(3600),
                        now.minusSeconds(1),
                        "oncall-lead",
                        ""));
        String undeliverable = OrderEvents.v2("evt-nobody", "o-9", 100, "EUR").replace("ada@example.com", "nobody");
        deadLetter(
                undeliverable,
                FailureClass.TRANSIENT,
                "Timeout",
                ConfirmationEmailConsumer.DEPENDENCY,
                now.minusSeconds(60));
        sweep();
        new SqsPollerForTests(aws.sqs(), queue.url(), queue.arn()).pollOnce(emailHandler, 1);

        Map<String, Object> second = sweep();

        assertThat(second).extractingByKey("replaysReturned").isEqualTo(1);
        List<QuarantineRecord> all = ledger.inState(QuarantineState.QUARANTINED, Optional.empty(), 10);
        assertThat(all).singleElement().satisfies(r -> {
            assertThat(r.replayCount()).isEqualTo(1);
            assertThat(r.classification().failureClass()).isEqualTo(FailureClass.PERMANENT);
            assertThat(r.classification().errorType()).isEqualTo("InvalidRecipient");
            assertThat(r.note()).contains("replay #1 dead-lettered again");
        });
        assertThat(new DynamoDbReplayStats(aws.dynamoDb(), config.sweeper().controlTable())
                        .totals()
                        .get(FailureClass.TRANSIENT)
                        .successRate())
                .isEqualTo(0.0);
    }

    @Test
    void twoSweepersAtOnceQuarantineEveryDeadLetterExactlyOnce() throws Exception {
        for (int i = 0; i < 40; i++) {
            deadLetter(
                    OrderEvents.v2("evt-c-" + i, "o", 100, "EUR"),
                    FailureClass.PERMANENT,
                    "Rule",
                    null,
                    clock.instant());
        }
        ExecutorService two = Executors.newFixedThreadPool(2);
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<Map<String, Object>>> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            runs.add(two.submit((Callable<Map<String, Object>>) () -> {
                start.await(10, TimeUnit.SECONDS);
                return sweep();
            }));
        }
        int quarantined = 0;
        int skipped = 0;
        for (Future<Map<String, Object>> run : runs) {
            Map<String, Object> summary = run.get(2, TimeUnit.MINUTES);
            quarantined += (Integer) summary.get("quarantined");
            skipped += Boolean.TRUE.equals(summary.get("skippedLeaseHeld")) ? 1 : 0;
        }
        two.shutdown();

        assertThat(quarantined).isEqualTo(40);
        assertThat(ledger.inState(QuarantineState.QUARANTINED, Optional.empty(), 100))
                .hasSize(40);
        assertThat(skipped)
                .as("the second found the lease held, or came after the first had finished")
                .isBetween(0, 1);
        assertThat(drain(queue.dlqUrl())).isEmpty();
    }

    @Test
    void deadLettersPastRetentionAreArchivedToS3AsEncryptedGzipJsonLinesAndLeaveTombstones() throws Exception {
        for (int i = 0; i < 3; i++) {
            deadLetter(
                    OrderEvents.v2("evt-old-" + i, "o", 100, "EUR"),
                    FailureClass.PERMANENT,
                    "Rule",
                    null,
                    clock.instant());
        }
        sweep();
        clock.jump(Duration.ofDays(8));

        Map<String, Object> summary = sweep();

        assertThat(summary).extractingByKey("archived").isEqualTo(3);
        List<S3Object> objects = aws.s3()
                .listObjectsV2(b -> b.bucket(config.sweeper().archiveBucket()).prefix("archive/"))
                .contents();
        assertThat(objects)
                .singleElement()
                .satisfies(o -> assertThat(o.key())
                        .startsWith("archive/queue=order-placed-email/date=")
                        .endsWith(".jsonl.gz"));
        var object = aws.s3()
                .getObject(b -> b.bucket(config.sweeper().archiveBucket())
                        .key(objects.get(0).key()));
        assertThat(object.response().serverSideEncryptionAsString()).isEqualTo("aws:kms");
        List<JsonNode> lines = new ArrayList<>();
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(new GZIPInputStream(object), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(json.readTree(line));
            }
        }
        assertThat(lines).hasSize(3).allSatisfy(l -> {
            assertThat(l.get("payload").asText()).contains("\"eventType\":\"OrderPlaced\"");
            assertThat(l.get("classification").get("failureClass").asText()).isEqualTo("PERMANENT");
            assertThat(l.get("archiveReason").asText()).contains("expired before it was resolved");
            assertThat(l.get("audit")).hasSize(2);
        });
        assertThat(ledger.inState(QuarantineState.ARCHIVED, Optional.empty(), 10))
                .as("tombstones leave the active " + "ledger")
                .isEmpty();
        assertThat(ledger.ofQueue("order-placed-email", 10)).hasSize(3).allSatisfy(r -> {
            assertThat(r.state()).isEqualTo(QuarantineState.ARCHIVED);
            assertThat(r.archiveRef()).isEqualTo(objects.get(0).key());
            assertThat(r.body()).isNull();
        });
    }

    private Map<String, Object> sweep() {
        return SweeperTestResources.sweepEmailDlq(sweeper);
    }

    private DynamoDbMaintenanceWindows windows() {
        return new DynamoDbMaintenanceWindows(aws.dynamoDb(), config.sweeper().controlTable());
    }

    /** Puts a message in the DLQ the way the consumer dead-letters it, with its failure metadata. */
    private void deadLetter(String body, FailureClass c, String type, String dependency, Instant failedAt) {
        String eventId = extractEventId(body);
        DeadLetterMetadata meta = new DeadLetterMetadata(
                "confirmation-email",
                "confirmation-email#" + eventId,
                queue.arn(),
                UUID.randomUUID().toString(),
                c.name(),
                type,
                type + " from " + dependency,
                dependency,
                2,
                failedAt.toEpochMilli(),
                failedAt.toEpochMilli());
        aws.sqs()
                .sendMessage(b -> b.queueUrl(queue.dlqUrl())
                        .messageBody(body)
                        .messageAttributes(Map.of(
                                DeadLetterMetadata.ATTRIBUTE,
                                MessageAttributeValue.builder()
                                        .dataType("String")
                                        .stringValue(meta.toJson())
                                        .build())));
    }

    private String extractEventId(String body) {
        try {
            return json.readTree(body).get("eventId").asText();
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /**
     * Every message {@code url} holds. Short polls: local SQS (ElasticMQ) answers one with every visible message, so the
     * empty receive that ends the drain answers at once instead of long-polling a second.
     */
    private List<Message> drain(String url) {
        List<Message> all = new ArrayList<>();
        List<Message> batch;
        do {
            batch = aws.sqs()
                    .receiveMessage(b -> b.queueUrl(url)
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(0)
                            .messageAttributeNames("All"))
                    .messages();
            all.addAll(batch);
        } while (!batch.isEmpty());
        return all;
    }
}
