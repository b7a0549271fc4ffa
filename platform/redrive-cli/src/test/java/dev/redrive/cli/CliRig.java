package dev.redrive.cli;

import static org.awaitility.Awaitility.await;

import dev.redrive.aws.archive.S3PayloadStore;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.checkout.CheckoutContracts;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlacedReader;
import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.names.RedriveNames.ReplayPaceVariables;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplaySender;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The CLI on local AWS for tests: the sweeper's tables, a queue pair and the archive bucket, created fresh; dead letters
 * seeded through the DynamoDB ledger adapter; the CLI run in-process through picocli's {@code execute}, with stdout and
 * stderr captured.
 */
final class CliRig {

    static final String QUEUE = DeadLetters.QUEUE;
    static final String CONSUMER = DeadLetters.CONSUMER;
    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    final LocalAws aws;
    final QueuePair queue;
    final Clock clock;
    final DynamoDbQuarantineLedger ledger;
    final Map<String, String> env = new HashMap<>();

    /** What one run of the CLI printed and returned. */
    record Run(int exitCode, String out, String err) {}

    CliRig(LocalAws aws) {
        this(aws, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    /** The rig on {@code clock} (tests use the fixed {@link #NOW}; the local demo the real time). */
    CliRig(LocalAws aws, Clock clock) {
        this.aws = aws;
        this.clock = clock;
        LocalResources.createTable(aws.dynamoDb(), "redrive-claims");
        LocalResources.createQuarantineTable(aws.dynamoDb(), "redrive-quarantine");
        LocalResources.createKeyValueTable(aws.dynamoDb(), "redrive-control");
        aws.s3().createBucket(b -> b.bucket("redrive-archive"));
        queue = LocalResources.createQueuePair(aws, QUEUE, 3, 30);
        ledger = new DynamoDbQuarantineLedger(aws.dynamoDb(), "redrive-quarantine", "redrive-control", clock);
        env.putAll(aws.environment());
        // Replays are paced (10 a second by default, from the same variable as the sweeper's); a test of anything
        // else replays at 1,000 a second, so its sends become visible within a second. PacedBulkReplayTest sets its
        // own.
        env.put(ReplayPaceVariables.RATE_PER_SECOND, "1000");
        env.put(Settings.ROUTES, routes().toJson());
    }

    /** The checkout's declared route on the rig's queues, as the IaC writes it for the sweeper and the CLI. */
    RoutesDocument routes() {
        return new RoutesDocument(List.of(
                CheckoutContracts.route(CONSUMER, queue.url(), queue.dlqUrl(), ConfirmationEmailConsumer.DEPENDENCY)));
    }

    Run run(String... args) {
        return run(UnaryOperator.identity(), args);
    }

    /** Runs the CLI with the replay sender wrapped (to abort or stop a run half-way). */
    Run run(UnaryOperator<ReplaySender> senderWrapper, String... args) {
        return run(CliContext.of(env, clock, "os-user").withSenderWrapper(senderWrapper), args);
    }

    Run run(CliContext context, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (RedriveCli root = new RedriveCli(context)) {
            CommandLine cl = RedriveCli.commandLine(root);
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int code = cl.execute(args);
            return new Run(code, out.toString(), err.toString());
        }
    }

    /** A dead letter of the email consumer, QUARANTINED, that arrived {@code ago} before {@link #NOW}. */
    QuarantineRecord deadLetter(String id, String body, FailureClass c, String errorType, Duration ago) {
        return deadLetter(id, body, DeadLetters.classification(c, errorType), ago);
    }

    /** A dead letter of the email consumer with {@code classification}, QUARANTINED, {@code ago} before now. */
    QuarantineRecord deadLetter(String id, String body, Classification classification, Duration ago) {
        QuarantineRecord r = DeadLetters.quarantined(
                id, body, classification, clock.instant().minus(ago));
        if (!ledger.insertIfAbsent(r, Optional.empty())) {
            throw new IllegalStateException("dead letter " + id + " exists already");
        }
        return ledger.find(id).orElseThrow();
    }

    /** A dead letter whose payload the sweeper kept in the archive bucket (too large for the ledger item). */
    QuarantineRecord deadLetterStoredAside(String id, String body, Duration ago) {
        QuarantineRecord inline = deadLetter(id, body, FailureClass.TRANSIENT, "Timeout", ago);
        String ref = new S3PayloadStore(aws.s3(), "redrive-archive", null).put(id, body);
        QuarantineRecord aside = new QuarantineRecord(
                id,
                inline.state(),
                inline.origin(),
                inline.evidence(),
                new PayloadLocation.Aside(ref),
                inline.attributes(),
                0,
                inline.note(),
                inline.audit(),
                inline.version());
        return ledger.save(aside, Optional.empty()).orElseThrow();
    }

    QuarantineRecord record(String id) {
        return ledger.find(id).orElseThrow();
    }

    /** Records a completed claim for {@code body} in the claims table, as the consumer does once it applied it. */
    void applied(String body) {
        DynamoDbClaimStore claims = new DynamoDbClaimStore(aws.dynamoDb(), "redrive-claims");
        var parsed = new OrderPlacedReader(Json.MAPPER, new EventSchemas())
                .read(new IncomingMessage("m", null, body, Map.of(), 1, "", null));
        IdempotencyKey key = new IdempotencyKey(CONSUMER, parsed.producerKey());
        Instant now = clock.instant();
        ClaimOutcome outcome = claims.claim(
                new ClaimRequest(
                        key,
                        PayloadFingerprint.of(parsed.canonicalPayload()),
                        now.plusSeconds(30),
                        now.plus(Duration.ofDays(30)),
                        new MessageOrigin(QUEUE, "m-1")),
                now);
        long token = ((ClaimOutcome.Acquired) outcome).fencingToken();
        claims.complete(key, token, "sent", now);
    }

    /** Every message in the source queue, received once with a long visibility so none comes twice. */
    List<Message> drainSource() {
        awaitNoneDelayed();
        List<Message> all = new ArrayList<>();
        List<Message> batch;
        do {
            batch = aws.sqs()
                    .receiveMessage(b -> b.queueUrl(queue.url())
                            .maxNumberOfMessages(10)
                            .visibilityTimeout(600)
                            .waitTimeSeconds(0)
                            .messageAttributeNames("All"))
                    .messages();
            all.addAll(batch);
        } while (!batch.isEmpty());
        return all;
    }

    /** Waits until every paced replay in the source queue has become visible (none is delayed any more). */
    void awaitNoneDelayed() {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> "0"
                        .equals(aws.sqs()
                                .getQueueAttributes(b -> b.queueUrl(queue.url())
                                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                                .attributes()
                                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)));
    }

    /** How many messages in the source queue carry each quarantine id in their replay marker. */
    Map<String, Integer> sendsById() {
        Map<String, Integer> counts = new HashMap<>();
        for (Message m : drainSource()) {
            var marker = m.messageAttributes().get(ReplayMarker.ATTRIBUTE);
            String id = marker == null
                    ? "(no marker)"
                    : ReplayMarker.decode(marker.stringValue())
                            .map(ReplayMarker::quarantineId)
                            .orElse("(bad marker)");
            counts.merge(id, 1, Integer::sum);
        }
        return counts;
    }
}
