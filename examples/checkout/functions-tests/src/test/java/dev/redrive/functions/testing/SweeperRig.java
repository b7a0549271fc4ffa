package dev.redrive.functions.testing;

import dev.redrive.aws.AwsRedrive;
import dev.redrive.aws.ledger.DynamoDbMaintenanceWindows;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.checkout.CheckoutContracts;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.consumer.KeyReader;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.ReplayService;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.Route;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.core.sweeper.SweeperSettings;
import dev.redrive.functions.checkout.OrderEvents;
import dev.redrive.schema.ContractReader;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * The sweeper wired by hand to the AWS adapters on local AWS, under fresh table and queue names, with counted SDK
 * clients: for tests that need several sweepers at once or a fault injected, and for the sweeper benchmark.
 */
public final class SweeperRig {

    public final LocalAws aws;
    public final CountedClients clients;
    public final String claims;
    public final String quarantine;
    public final String control;
    public final String archive;
    public final LocalResources.QueuePair queue;
    public final Route route;

    public SweeperRig(LocalAws aws) {
        this.aws = aws;
        this.clients = CountedClients.on(aws);
        String s = UUID.randomUUID().toString().substring(0, 8);
        claims = "rig-claims-" + s;
        quarantine = "rig-quarantine-" + s;
        control = "rig-control-" + s;
        archive = "rig-archive-" + s;
        LocalResources.createTable(aws.dynamoDb(), claims);
        LocalResources.createQuarantineTable(aws.dynamoDb(), quarantine);
        LocalResources.createKeyValueTable(aws.dynamoDb(), control);
        aws.s3().createBucket(b -> b.bucket(archive));
        queue = LocalResources.createQueuePair(aws, "rig-email-" + s, 4, 30);
        route = new Route(
                ConfirmationEmailConsumer.NAME,
                queue.url().substring(queue.url().lastIndexOf('/') + 1),
                queue.dlqUrl().substring(queue.dlqUrl().lastIndexOf('/') + 1));
    }

    /** A sweeper over the rig's resources; {@code source} may wrap the SQS dead-letter source to inject a fault. */
    public Sweeper sweeper(UnaryOperator<DeadLetterSource> source) {
        return sweeper(source, 120);
    }

    /**
     * A sweeper over the rig's resources; {@code source} may wrap the SQS dead-letter source to inject a fault, and
     * dead letters it receives stay invisible for {@code receiveVisibilitySeconds}.
     */
    public Sweeper sweeper(UnaryOperator<DeadLetterSource> source, int receiveVisibilitySeconds) {
        return sweeper(source, receiveVisibilitySeconds, l -> l, AwsRedrive.REPLAY_CHECK_PARALLELISM);
    }

    /**
     * A sweeper over the rig's resources whose ledger (the sweeper's and its replays') is {@code ledger} applied to the
     * DynamoDB one, checking {@code replayParallelism} replays at once: for the benchmark's switch to the path before
     * issue 16.
     */
    public Sweeper sweeper(
            UnaryOperator<DeadLetterSource> source,
            int receiveVisibilitySeconds,
            UnaryOperator<QuarantineLedger> ledger,
            int replayParallelism) {
        Clock clock = Clock.systemUTC();
        QueueDirectory directory = new QueueDirectory(clients.sqs(), Optional.empty());
        directory.register(route.sourceQueue(), queue.url());
        directory.register(route.deadLetterQueue(), queue.dlqUrl());
        // The checks come from the declared route, as the deployed sweeper's do: no consumer code.
        RoutesDocument routes = new RoutesDocument(List.of(CheckoutContracts.route(
                route.consumer(), route.sourceQueue(), route.deadLetterQueue(), ConfirmationEmailConsumer.DEPENDENCY)));
        Map<String, ContractReader> readers = routes.readers();
        Map<String, KeyReader> consumers = routes.keyReaders(readers);
        AwsRedrive redrive = new AwsRedrive(
                clients.dynamoDb(),
                clients.sqs(),
                aws.s3(),
                directory,
                new AwsRedrive.Names(claims, quarantine, control, archive, Optional.empty()),
                receiveVisibilitySeconds,
                clock);
        QuarantineLedger wrapped = ledger.apply(redrive.ledger());
        ReplayService replays = redrive.replays(consumers, routes.schemaGate(readers))
                .ledger(wrapped)
                .parallelism(replayParallelism)
                .build();
        SweeperSettings settings = new SweeperSettings(Duration.ofDays(7), 100_000, 64 * 1024, 10_000);
        return redrive.sweeper(consumers, replays)
                .deadLetters(source.apply(redrive.deadLetters()))
                .ledger(wrapped)
                .settings(settings)
                .replayBatch(10_000)
                .build();
    }

    /** An approved window for the email provider that is over, covering the last hour. */
    public void approveFinishedWindow() {
        Instant now = Instant.now();
        new DynamoDbMaintenanceWindows(aws.dynamoDb(), control)
                .add(new MaintenanceWindow(
                        "w-" + UUID.randomUUID(),
                        ConfirmationEmailConsumer.DEPENDENCY,
                        now.minus(Duration.ofHours(1)),
                        now.minusSeconds(1),
                        "change-board",
                        "test"));
    }

    /** {@code count} dead letters as the email consumer sends them during an outage; returns their event ids. */
    public List<String> deadLetter(int count, String label) {
        Instant failedAt = Instant.now().minus(Duration.ofMinutes(10));
        List<String> ids = new ArrayList<>();
        List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String eventId = "evt-" + label + "-" + i;
            ids.add(eventId);
            DeadLetterMetadata meta = new DeadLetterMetadata(
                    ConfirmationEmailConsumer.NAME,
                    ConfirmationEmailConsumer.NAME + "#" + eventId,
                    queue.arn(),
                    UUID.randomUUID().toString(),
                    FailureClass.TRANSIENT.name(),
                    "SlowDown",
                    "SlowDown (HTTP 503) from email-provider",
                    ConfirmationEmailConsumer.DEPENDENCY,
                    4,
                    failedAt.toEpochMilli(),
                    failedAt.toEpochMilli());
            batch.add(SendMessageBatchRequestEntry.builder()
                    .id("d" + batch.size())
                    .messageBody(OrderEvents.v2(eventId, "o-" + i, 100, "EUR"))
                    .messageAttributes(Map.of(
                            DeadLetterMetadata.ATTRIBUTE,
                            MessageAttributeValue.builder()
                                    .dataType("String")
                                    .stringValue(meta.toJson())
                                    .build()))
                    .build());
            if (batch.size() == 10 || i == count - 1) {
                List<SendMessageBatchRequestEntry> entries = List.copyOf(batch);
                aws.sqs().sendMessageBatch(b -> b.queueUrl(queue.dlqUrl()).entries(entries));
                batch.clear();
            }
        }
        return ids;
    }
}
