package dev.redrive.functions.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.queues.QueueDirectory;
import dev.redrive.aws.queues.SqsQueueGateway;
import dev.redrive.checkout.EventSchemas;
import dev.redrive.checkout.OrderPlacedReader;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The consumer machinery wired by hand on local AWS, with counted SDK clients: for call-count tests and benchmarks
 * that need no Quarkus application.
 */
public final class ConsumerRig implements AutoCloseable {

    public final LocalAws aws;
    public final CountedClients clients;
    public final String claimsTable;
    public final String revenueTable;
    public final LocalResources.QueuePair queue;
    public final QueueDirectory directory;
    public final BatchProcessor batches;

    public ConsumerRig(LocalAws aws, int concurrency) {
        this.aws = aws;
        this.clients = CountedClients.on(aws);
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        this.claimsTable = "rig-claims-" + suffix;
        this.revenueTable = "rig-revenue-" + suffix;
        LocalResources.createTable(aws.dynamoDb(), claimsTable);
        LocalResources.createTable(aws.dynamoDb(), revenueTable);
        this.queue = LocalResources.createQueuePair(aws, "rig-" + suffix, 5, 30);
        this.directory = new QueueDirectory(clients.sqs(), Optional.of(queue.dlqUrl()));
        MessageProcessor processor = new MessageProcessor(
                new DynamoDbClaimStore(clients.dynamoDb(), claimsTable),
                LeasePolicy.DEFAULT,
                new FullJitterBackoff(Duration.ofSeconds(2), 2, Duration.ofMinutes(15)),
                new Mulberry32(11),
                Clock.systemUTC(),
                ProcessingListener.NONE);
        this.batches = new BatchProcessor(processor, new SqsQueueGateway(clients.sqs(), directory), concurrency);
    }

    public RevenueAnalyticsConsumer revenueConsumer() {
        return new RevenueAnalyticsConsumer(
                new OrderPlacedReader(new ObjectMapper(), new EventSchemas()), revenueTable);
    }

    public BatchReport process(IdempotentConsumer<?> consumer, List<IncomingMessage> batch) {
        return batches.process(consumer, batch, Duration.ofSeconds(60), () -> Duration.ofSeconds(60));
    }

    /** A message as the event source would deliver it from the rig's queue (receipt handle made up). */
    public IncomingMessage message(String body) {
        String id = UUID.randomUUID().toString();
        return new IncomingMessage(id, "rh-" + id, body, Map.of(), 1, queue.arn(), null);
    }

    @Override
    public void close() {
        // lane threads are daemons started per batch; nothing to stop
    }
}
