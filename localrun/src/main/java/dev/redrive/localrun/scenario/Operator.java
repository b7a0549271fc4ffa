package dev.redrive.localrun.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.archive.S3PayloadStore;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.aws.ledger.DynamoDbQuarantineLedger;
import dev.redrive.aws.queues.QueueAddress;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsReplaySender;
import dev.redrive.checkout.CheckoutSchemaGate;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlacedReader;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ClaimLookupIdempotencyGate;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.localrun.LocalSystem;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * A person at the terminal: maintains maintenance windows and replays what waits for a decision, through the same
 * replay service (and so the same schema and idempotency checks) as the sweeper and the CLI.
 */
public final class Operator {

    private final Actor actor;
    private final ReplayService replays;
    private final MaintenanceWindows windows;
    private final DynamoDbQuarantineLedger ledger;

    public Operator(LocalSystem system, Observer observer, Actor actor) {
        this.actor = actor;
        ObjectMapper json = new ObjectMapper();
        var aws = system.aws();
        QueueDirectory directory = new QueueDirectory(aws.sqs(), Optional.empty());
        try {
            for (JsonNode route : json.readTree(system.environmentOf(LocalSystem.SWEEPER)
                    .get("REDRIVE_SWEEPER_ROUTES"))) {
                String source = route.get("sourceQueueUrl").asText();
                directory.register(QueueAddress.nameOf(source), source);
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("the sweeper's routes are not JSON", e);
        }
        OrderPlacedReader reader = new OrderPlacedReader(json, new EventSchemas());
        ConfirmationEmailConsumer email = new ConfirmationEmailConsumer(reader, e -> {
            throw new UnsupportedOperationException("the operator never sends emails");
        });
        RevenueAnalyticsConsumer revenue = new RevenueAnalyticsConsumer(reader, observer.revenueTable());
        this.ledger = new DynamoDbQuarantineLedger(aws.dynamoDb(), observer.quarantineTable(),
                observer.controlTable(), Clock.systemUTC());
        this.replays = new ReplayService(ledger, new CheckoutSchemaGate(json, new EventSchemas(),
                CheckoutSchemaGate.upcasters()), new ClaimLookupIdempotencyGate(Map.of(email.name(), email,
                        revenue.name(), revenue), new DynamoDbClaimStore(aws.dynamoDb(), observer.claimsTable())),
                new SqsReplaySender(aws.sqs(), directory), new S3PayloadStore(aws.s3(), observer.archiveBucket(),
                        null), Clock.systemUTC());
        this.windows = new DynamoDbMaintenanceWindows(aws.dynamoDb(), observer.controlTable());
    }

    public MaintenanceWindows windows() {
        return windows;
    }

    public Actor actor() {
        return actor;
    }

    public ReplayOutcome replay(QuarantineRecord record, String why) {
        return replays.replay(record.id(), actor, why, Optional.empty(), false);
    }

    /** A person's decision to archive a dead letter that waits, with a note. */
    public boolean archive(QuarantineRecord record, String note) {
        QuarantineRecord current = ledger.find(record.id()).orElseThrow();
        if (current.state() != QuarantineState.QUARANTINED) {
            return false;
        }
        return ledger.save(current.moveTo(QuarantineState.ARCHIVED, actor, note, java.time.Instant.now()),
                Optional.empty()).isPresent();
    }
}
