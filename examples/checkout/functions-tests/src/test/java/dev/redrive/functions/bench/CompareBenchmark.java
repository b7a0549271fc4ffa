package dev.redrive.functions.bench;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.testing.ConsumerRig;
import dev.redrive.functions.testing.CountedClients;
import dev.redrive.testing.localaws.LocalAws;
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
 * Redrive's consumer against a Powertools-style baseline ({@link PowertoolsStyleConsumer}) in both its batch modes,
 * side by side in one run on the same local AWS: {@code processBatch} (records one after another) and {@code
 * processBatchInParallel} with the executor Powertools documents for I/O-bound handlers ({@link
 * PowertoolsStyleBatch#documentedIoExecutor()}: every record of a batch at once). The same messages in batches of 10,
 * the same downstream call of 50 ms per message applied, in interleaved rounds (each batch goes to every side, the side
 * that goes first rotating), for four workloads: new messages, duplicates of completed ones, messages whose call fails
 * transiently, and the retry of such a failed message. Prints per side messages per second, p50 and p99 of a batch's
 * wall time, DynamoDB calls (counted by an SDK interceptor), write units and SQS calls per message, the most
 * downstream calls seen in flight at once, and the ratios Redrive / each baseline. Run with {@code bin/benchmark
 * compare [rounds]}.
 */
public final class CompareBenchmark {

    static final int BATCH = 10;
    static final int BATCHES_PER_ROUND = 10;
    static final Duration CALL = Duration.ofMillis(50);

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
            CompareBenchmark bench = new CompareBenchmark(
                    rig,
                    List.of(
                            CompareSides.powertoolsSequential(aws),
                            CompareSides.powertoolsParallel(aws),
                            CompareSides.redrive(rig)));
            System.out.println("Redrive against a Powertools-style consumer — local AWS: " + aws.describe());
            System.out.println("  PT-style = " + PowertoolsStyleConsumer.LABEL);
            System.out.println("  PT-sequential = its processBatch: the records of a batch one after another");
            System.out.println("  PT-parallel   = its processBatchInParallel(event, context, executor) with"
                    + " Executors.newFixedThreadPool(" + PowertoolsStyleBatch.DOCUMENTED_IO_POOL_THREADS
                    + "), the documented choice for I/O-bound handlers: every record of a batch at once");
            System.out.println("  Redrive       = BatchProcessor (" + BATCH
                    + " lanes, the handler's default) with DynamoDbClaimStore, as IdempotentSqsHandler wires it");
            System.out.println("  batches of " + BATCH + ", a " + CALL.toMillis() + " ms downstream call per message"
                    + " applied, " + rounds + " interleaved rounds of " + BATCHES_PER_ROUND
                    + " batches per workload after a warm-up round; this JVM sees "
                    + Runtime.getRuntime().availableProcessors() + " processors");
            bench.round(2, 0, false); // warm-up: connections, JIT, moto's first tables
            for (int r = 0; r < rounds; r++) {
                bench.round(BATCHES_PER_ROUND, r, true);
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

    /** A round: {@code batches} batches of each workload, each to every side, the first side rotating. */
    private void round(int batches, int offset, boolean record) {
        for (Workload workload : Workload.values()) {
            for (int b = 0; b < batches; b++) {
                List<IncomingMessage> batch = batchOf(workload);
                for (int i = 0; i < sides.size(); i++) {
                    Side side = sides.get((offset + b + i) % sides.size());
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
        int concurrent = side.downstream().takeMostInFlight();
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
                            side.clients().sqsCalls().total(),
                            concurrent);
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
}
