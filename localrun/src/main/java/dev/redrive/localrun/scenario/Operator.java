package dev.redrive.localrun.scenario;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import dev.redrive.core.operator.LedgerOperator;
import dev.redrive.core.operator.OperatorPort;
import dev.redrive.core.operator.QuarantineQuery;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.ClaimLookupIdempotencyGate;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.localrun.LocalSystem;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A person at the terminal, scripted: maintains maintenance windows, replays or archives what waits for a decision,
 * through core's operator port (and so the same schema and idempotency checks as the sweeper and the CLI).
 */
public final class Operator {

    private final Actor actor;
    private final OperatorPort port;

    public Operator(LocalSystem system, Observer observer, Actor actor) {
        this.actor = actor;
        ObjectMapper json = new ObjectMapper();
        var aws = system.aws();
        QueueDirectory directory = new QueueDirectory(aws.sqs(), Optional.empty());
        try {
            for (JsonNode route :
                    json.readTree(system.environmentOf(LocalSystem.SWEEPER).get("REDRIVE_SWEEPER_ROUTES"))) {
                String source = route.get("sourceQueueUrl").asText();
                directory.register(QueueAddress.nameOf(source), source);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the sweeper's routes are not JSON", e);
        }
        OrderPlacedReader reader = new OrderPlacedReader(json, new EventSchemas());
        ConfirmationEmailConsumer email = new ConfirmationEmailConsumer(reader, e -> {
            throw new UnsupportedOperationException("the operator never sends emails");
        });
        RevenueAnalyticsConsumer revenue = new RevenueAnalyticsConsumer(reader, observer.revenueTable());
        DynamoDbQuarantineLedger ledger = new DynamoDbQuarantineLedger(
                aws.dynamoDb(), observer.quarantineTable(), observer.controlTable(), Clock.systemUTC());
        ReplayService replays = new ReplayService(
                ledger,
                new CheckoutSchemaGate(json, new EventSchemas(), CheckoutSchemaGate.upcasters()),
                new ClaimLookupIdempotencyGate(
                        Map.of(email.name(), email, revenue.name(), revenue),
                        new DynamoDbClaimStore(aws.dynamoDb(), observer.claimsTable())),
                new SqsReplaySender(aws.sqs(), directory),
                new S3PayloadStore(aws.s3(), observer.archiveBucket(), null),
                Clock.systemUTC());
        this.port = new LedgerOperator(
                ledger,
                replays,
                new DynamoDbMaintenanceWindows(aws.dynamoDb(), observer.controlTable()),
                Clock.systemUTC());
    }

    /** Maintenance windows, through the operator port. */
    public MaintenanceWindows windows() {
        return new MaintenanceWindows() {
            @Override
            public void add(MaintenanceWindow window) {
                port.addWindow(window);
            }

            @Override
            public boolean remove(String id) {
                return port.removeWindow(id);
            }

            @Override
            public List<MaintenanceWindow> list() {
                return port.windows();
            }

            @Override
            public Optional<MaintenanceWindow> find(String id) {
                return port.windows().stream().filter(w -> w.id().equals(id)).findFirst();
            }
        };
    }

    public Actor actor() {
        return actor;
    }

    public ReplayOutcome replay(QuarantineRecord record, String why) {
        return port.approveReplay(List.of(record.id()), actor, why, false).get(record.id());
    }

    /** What waits for a decision (every unresolved record), oldest first, up to {@code limit}. */
    public List<QuarantineRecord> waiting(int limit) {
        return port.list(QuarantineQuery.waiting(limit));
    }

    /** A bulk replay, as {@code redrive replay} runs one: these records, through the same checks as the sweeper. */
    public Map<String, ReplayOutcome> replayAll(List<String> ids, String why) {
        return port.approveReplay(ids, actor, why, false);
    }

    /** A person's decision to archive these dead letters, with a note; how many were archived. */
    public long archiveAll(List<String> ids, String note) {
        return port.archive(ids, actor, note, false).values().stream()
                .filter(o -> o instanceof ArchiveDecision.Archived)
                .count();
    }

    /** A person's decision to archive a dead letter that waits, with a note. */
    public boolean archive(QuarantineRecord record, String note) {
        return port.archive(List.of(record.id()), actor, note, false).get(record.id())
                instanceof ArchiveDecision.Archived;
    }
}
