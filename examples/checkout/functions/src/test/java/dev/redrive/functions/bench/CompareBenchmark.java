package dev.redrive.functions.bench;

import dev.redrive.core.consumer.BatchReport;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.testing.ConsumerRig;
import dev.redrive.functions.testing.CountedClients;
import dev.redrive.testing.localaws.LocalAws;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Redrive's consumer against a Powertools-style baseline ({@link PowertoolsStyleConsumer}), side by side in one run on
 * the same local AWS: the same messages in batches of 10, the same downstream call of 50 ms per message applied, in
 * interleaved rounds (each batch goes to both sides, in alternating order), for three workloads: new messages,
 * duplicates of completed ones, messages whose call fails transiently, and the retry of such a failed message. Prints per side messages per second, p50
 * and p99 of a batch's wall time, DynamoDB calls (counted by an SDK interceptor), write units and SQS calls per
 * message, and the ratios Redrive / baseline. Run with {@code bin/benchmark compare [rounds]}.
 */
public final class CompareBenchmark {

    static final int BATCH = 10;
    static final int BATCHES_PER_ROUND = 10;
    static final Duration CALL = Duration.ofMillis(50);
    private static final Duration REMAINING = Duration.ofSeconds(60);

    enum Workload {
        NEW("new messages"),
        DUPLICATE("duplicates (already completed)"),
        FAILING("failing messages (the call fails transiently)"),
        RETRY("failing again (the retry of a failed message)");

        boolean fails() {
            return this == FAILING || this == RETRY;
        }

        final String label;

        Workload(String label) {
            this.label = label;
        }
    }

    /**
     * One consumer under test, with its own counted clients, table and downstream.
     *
     * @param process  processes a batch calling the 50 ms downstream; returns how many messages it reported failed
     * @param earlier  processes a batch calling a downstream without latency, counted nowhere: the earlier delivery of
     *                 a duplicate or a retry
     */
    record Side(
            String name,
            CountedClients clients,
            String table,
            Downstream downstream,
            ToIntFunction<List<IncomingMessage>> process,
            Consumer<List<IncomingMessage>> earlier) {}

    private final ConsumerRig rig;
    private final List<Side> sides;
    private final Map<Side, Map<Workload, BatchTally>> tallies = new LinkedHashMap<>();

    private CompareBenchmark(ConsumerRig rig, List<Side> sides) {
        this.rig = rig;
        this.sides = sides;
        for (Side side : sides) {
            Map<Workload, BatchTally> bySide = new EnumMap<>(Workload.class);
            for (Workload w : Workload.values()) {
                bySide.put(w, new BatchTally());
            }
            tallies.put(side, bySide);
        }
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        LocalAws aws = LocalAws.shared();
        try (ConsumerRig rig = new ConsumerRig(aws, BATCH)) {
            rig.directory.url(rig.queue.arn()); // resolved once per container
            CompareBenchmark bench = new CompareBenchmark(rig, List.of(powertoolsStyle(aws), redrive(rig)));
            System.out.println("Redrive against a Powertools-style consumer — local AWS: " + aws.describe());
            System.out.println("  Powertools-style = " + PowertoolsStyleConsumer.LABEL);
            System.out.println("  Redrive          = BatchProcessor (" + BATCH
                    + " lanes, the handler's default) with DynamoDbClaimStore, as IdempotentSqsHandler wires it");
            System.out.println("  batches of " + BATCH + ", a " + CALL.toMillis() + " ms downstream call per message"
                    + " applied, " + rounds + " interleaved rounds of " + BATCHES_PER_ROUND
                    + " batches per workload after a warm-up round");
            bench.round(2, false, false); // warm-up: connections, JIT, moto's first tables
            for (int r = 0; r < rounds; r++) {
                bench.round(BATCHES_PER_ROUND, r % 2 == 1, true);
            }
            new CompareReport(bench.tallies, sizes(aws, bench.sides)).print(System.out);
        }
        System.exit(0);
    }

    private static Map<Side, Integer> sizes(LocalAws aws, List<Side> sides) {
        Map<Side, Integer> sizes = new HashMap<>();
        for (Side side : sides) {
            sizes.put(side, WriteUnits.largestItemBytes(aws.dynamoDb(), side.table()));
        }
        return sizes;
    }

    /** A round: {@code batches} batches of each workload, each to both sides, in alternating order. */
    private void round(int batches, boolean swapFirst, boolean record) {
        for (Workload workload : Workload.values()) {
            for (int b = 0; b < batches; b++) {
                List<IncomingMessage> batch = batchOf(workload);
                boolean reversed = swapFirst ^ (b % 2 == 1);
                for (int i = 0; i < sides.size(); i++) {
                    Side side = sides.get(reversed ? sides.size() - 1 - i : i);
                    time(side, workload, batch, record);
                }
                if (workload.fails()) {
                    deleteFromQueue(batch);
                }
            }
        }
    }

    private List<IncomingMessage> batchOf(Workload workload) {
        return switch (workload) {
            case NEW -> fresh("new-");
            case DUPLICATE -> {
                List<IncomingMessage> originals = fresh("dup-");
                sides.forEach(side -> side.earlier().accept(originals));
                yield redelivered(originals);
            }
            case FAILING -> receivedFromQueue(Downstream.FAILING);
            case RETRY -> {
                List<IncomingMessage> first = receivedFromQueue(Downstream.FAILING);
                sides.forEach(side -> side.earlier().accept(first));
                yield first.stream().map(CompareBenchmark::receivedAgain).collect(Collectors.toList());
            }
        };
    }

    private void time(Side side, Workload workload, List<IncomingMessage> batch, boolean record) {
        int callsBefore = side.downstream().calls();
        side.clients().reset();
        long start = System.nanoTime();
        int failed = side.process().applyAsInt(batch);
        long elapsed = System.nanoTime() - start;
        int expectedFailed = workload.fails() ? batch.size() : 0;
        int expectedCalls = workload == Workload.DUPLICATE ? 0 : batch.size();
        int calls = side.downstream().calls() - callsBefore;
        if (failed != expectedFailed || calls != expectedCalls) {
            throw new IllegalStateException(side.name() + " on " + workload.label + ": " + failed + " failed, " + calls
                    + " downstream calls; expected " + expectedFailed + " and " + expectedCalls);
        }
        if (record) {
            tallies.get(side)
                    .get(workload)
                    .add(
                            elapsed,
                            batch.size(),
                            side.clients().dynamoDbCalls().snapshot(),
                            side.clients().dynamoDbCalls().millis().values().stream()
                                    .mapToLong(Long::longValue)
                                    .sum(),
                            side.clients().sqsCalls().total());
        }
    }

    private List<IncomingMessage> fresh(String prefix) {
        List<IncomingMessage> batch = new ArrayList<>();
        for (int i = 0; i < BATCH; i++) {
            batch.add(rig.message("{\"key\":\"" + prefix + UUID.randomUUID() + "\"}"));
        }
        return batch;
    }

    /** The same bodies delivered again under new message ids (a producer's retry, a redrive). */
    private List<IncomingMessage> redelivered(List<IncomingMessage> originals) {
        return originals.stream().map(m -> rig.message(m.body())).collect(Collectors.toList());
    }

    /** The same delivery received once more (its receipt handle is still good for the visibility change). */
    private static IncomingMessage receivedAgain(IncomingMessage m) {
        return new IncomingMessage(
                m.messageId(), m.receiptHandle(), m.body(), Map.of(), 2, m.sourceQueue(), m.messageGroupId());
    }

    /** A batch really received from the rig's queue (uncounted), so Redrive's visibility changes are real calls. */
    private List<IncomingMessage> receivedFromQueue(String prefix) {
        Set<String> sent = new HashSet<>();
        for (IncomingMessage m : fresh(prefix)) {
            sent.add(rig.aws
                    .sqs()
                    .sendMessage(b -> b.queueUrl(rig.queue.url()).messageBody(m.body()))
                    .messageId());
        }
        List<IncomingMessage> batch = new ArrayList<>();
        while (batch.size() < sent.size()) {
            for (Message m : rig.aws
                    .sqs()
                    .receiveMessage(b -> b.queueUrl(rig.queue.url())
                            .maxNumberOfMessages(BATCH)
                            .waitTimeSeconds(1))
                    .messages()) {
                if (sent.contains(m.messageId())) {
                    batch.add(new IncomingMessage(
                            m.messageId(), m.receiptHandle(), m.body(), Map.of(), 1, rig.queue.arn(), null));
                } else {
                    rig.aws.sqs().deleteMessage(b -> b.queueUrl(rig.queue.url()).receiptHandle(m.receiptHandle()));
                }
            }
        }
        return batch;
    }

    private void deleteFromQueue(List<IncomingMessage> batch) {
        for (IncomingMessage m : batch) {
            rig.aws.sqs().deleteMessage(b -> b.queueUrl(rig.queue.url()).receiptHandle(m.receiptHandle()));
        }
    }

    private static Side redrive(ConsumerRig rig) {
        Downstream downstream = new Downstream(CALL);
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

    private static Side powertoolsStyle(LocalAws aws) {
        CountedClients clients = CountedClients.on(aws);
        String table = "powertools-style-" + UUID.randomUUID().toString().substring(0, 8);
        PowertoolsStyleConsumer.createTable(aws.dynamoDb(), table);
        PowertoolsStyleConsumer consumer = new PowertoolsStyleConsumer(
                clients.dynamoDb(), table, "bench.downstream", Duration.ofHours(1), Clock.systemUTC());
        Downstream downstream = new Downstream(CALL);
        Downstream originals = new Downstream(Duration.ZERO);
        return new Side(
                "Powertools-style",
                clients,
                table,
                downstream,
                batch -> consumer.processBatch(batch, downstream::call, () -> REMAINING)
                        .failedMessageIds()
                        .size(),
                batch -> consumer.processBatch(batch, originals::call, () -> REMAINING));
    }
}
