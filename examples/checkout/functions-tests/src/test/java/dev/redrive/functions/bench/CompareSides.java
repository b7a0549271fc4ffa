package dev.redrive.functions.bench;

import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.bench.CompareBenchmark.Side;
import dev.redrive.functions.bench.PowertoolsStyleConsumer.BatchResult;
import dev.redrive.functions.testing.ConsumerRig;
import dev.redrive.functions.testing.CountedClients;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * The sides {@link CompareBenchmark} runs: the Powertools-style baseline in each batch mode, each with its own counted
 * clients, table and downstream, and Redrive's consumer on the rig.
 */
final class CompareSides {

    private static final Duration REMAINING = Duration.ofSeconds(60);

    private CompareSides() {}

    static Side redrive(ConsumerRig rig) {
        Downstream downstream = new Downstream(CompareBenchmark.CALL);
        var consumer = downstream.asRedriveConsumer();
        var originals = new Downstream(Duration.ZERO).asRedriveConsumer();
        return new Side(
                "Redrive",
                rig.clients,
                rig.claimsTable,
                downstream,
                batch -> failedOf(rig.process(consumer, batch)),
                batch -> rig.process(originals, batch));
    }

    private static int failedOf(BatchReport report) {
        if (!report.visibilityNotChanged().isEmpty()) {
            throw new IllegalStateException("visibility not changed: " + report.visibilityNotChanged());
        }
        return report.failedMessageIds().size();
    }

    static Side powertoolsSequential(LocalAws aws) {
        return powertoolsStyle(aws, "PT-sequential", PowertoolsStyleConsumer::processBatch);
    }

    static Side powertoolsParallel(LocalAws aws) {
        ExecutorService executor = PowertoolsStyleBatch.documentedIoExecutor(); // once per sandbox, as documented
        return powertoolsStyle(
                aws,
                "PT-parallel",
                (consumer, batch, handler, remaining) ->
                        consumer.processBatchInParallel(batch, handler, remaining, executor));
    }

    /** One of the baseline's batch modes. */
    interface PtBatchMode {
        BatchResult run(
                PowertoolsStyleConsumer consumer,
                List<IncomingMessage> batch,
                PowertoolsStyleConsumer.RecordHandler handler,
                Supplier<Duration> remaining);
    }

    private static Side powertoolsStyle(LocalAws aws, String name, PtBatchMode mode) {
        CountedClients clients = CountedClients.on(aws);
        String table = "powertools-style-" + UUID.randomUUID().toString().substring(0, 8);
        PowertoolsStyleConsumer.createTable(aws.dynamoDb(), table);
        PowertoolsStyleConsumer consumer = new PowertoolsStyleConsumer(
                clients.dynamoDb(), table, "bench.downstream", Duration.ofHours(1), Clock.systemUTC());
        Downstream downstream = new Downstream(CompareBenchmark.CALL);
        Downstream originals = new Downstream(Duration.ZERO);
        return new Side(
                name,
                clients,
                table,
                downstream,
                batch -> mode.run(consumer, batch, downstream::call, () -> REMAINING)
                        .failedMessageIds()
                        .size(),
                batch -> mode.run(consumer, batch, originals::call, () -> REMAINING));
    }
}
