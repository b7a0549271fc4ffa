package dev.redrive.functions.bench;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.functions.bench.PowertoolsStyleConsumer.BatchResult;
import dev.redrive.functions.bench.PowertoolsStyleConsumer.Outcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How Powertools for AWS Lambda (Java) v2's {@code SqsBatchMessageHandler} runs the records of an SQS batch, each
 * through {@link PowertoolsStyleConsumer#processRecord} (the idempotency utility), re-implemented from its published
 * source (powertools-batch, {@code SqsBatchMessageHandler}, v2.0.0 to v2.10.0):
 *
 * <ul>
 *   <li>{@link #sequential}: {@code processBatch}, one record after another; on a FIFO batch the first failure fails
 *       the rest of the batch unprocessed.
 *   <li>{@link #parallel(List, Function)}: {@code processBatchInParallel(event, context)}, a {@code parallelStream()}
 *       over the records, so on the common {@code ForkJoinPool}: its parallelism (the processors the JVM sees less
 *       one, at least one, unless {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism} says otherwise)
 *       plus the calling thread, that is as many records at a time as the JVM sees processors, and at least two.
 *   <li>{@link #parallel(List, Function, Executor)}: {@code processBatchInParallel(event, context, executor)} (since
 *       v2.2.0), one {@code CompletableFuture.runAsync} per record on the caller's executor, all joined.
 * </ul>
 *
 * Both parallel forms refuse a batch whose first record carries a message group (FIFO) with an {@code
 * UnsupportedOperationException}, before processing anything. One difference on purpose: Powertools' executor form
 * adds each failure to an {@code ArrayList} from the worker threads (not thread-safe, so two failures finishing at once
 * can lose one); here every record's outcome is collected after the join, so the count is the one Powertools intends.
 */
final class PowertoolsStyleBatch {

    /** The pool Powertools' batch documentation shows for I/O-bound handlers ("Choosing the right concurrency model"). */
    static final int DOCUMENTED_IO_POOL_THREADS = 50;

    private PowertoolsStyleBatch() {}

    /**
     * The executor a throughput-minded user passes to {@code processBatchInParallel(event, context, executor)}, as the
     * documentation recommends for I/O-bound handlers: {@code Executors.newFixedThreadPool(50)}, created once per
     * sandbox. With batches of at most 10, every record of a batch runs at once (so would virtual threads, the
     * documentation's other recommendation, on Java 21).
     */
    static ExecutorService documentedIoExecutor() {
        return Executors.newFixedThreadPool(DOCUMENTED_IO_POOL_THREADS);
    }

    /** {@code processBatch}: one record after another; on FIFO, the first failure ends the batch. */
    static BatchResult sequential(List<IncomingMessage> batch, Function<IncomingMessage, Outcome> record) {
        List<Outcome> outcomes = new ArrayList<>();
        boolean failRest = false;
        for (IncomingMessage message : batch) {
            Outcome outcome = failRest ? Outcome.NOT_PROCESSED : record.apply(message);
            outcomes.add(outcome);
            failRest |= failed(outcome) && message.fifo();
        }
        return resultOf(batch, outcomes);
    }

    /** {@code processBatchInParallel(event, context)}: a parallel stream, on the common ForkJoinPool. */
    static BatchResult parallel(List<IncomingMessage> batch, Function<IncomingMessage, Outcome> record) {
        refuseFifo(batch);
        List<Outcome> outcomes = batch.parallelStream().map(record).collect(Collectors.toList());
        return resultOf(batch, outcomes);
    }

    /** {@code processBatchInParallel(event, context, executor)}: one future per record on the executor, joined. */
    static BatchResult parallel(
            List<IncomingMessage> batch, Function<IncomingMessage, Outcome> record, Executor executor) {
        refuseFifo(batch);
        List<CompletableFuture<Outcome>> futures = batch.stream()
                .map(message -> CompletableFuture.supplyAsync(() -> record.apply(message), executor))
                .collect(Collectors.toList());
        List<Outcome> outcomes = futures.stream().map(CompletableFuture::join).collect(Collectors.toList());
        return resultOf(batch, outcomes);
    }

    /** The concurrency {@link #parallel(List, Function)} reaches on this JVM: the common pool's threads and the caller. */
    static int commonPoolConcurrency() {
        return ForkJoinPool.getCommonPoolParallelism() + 1;
    }

    /** isFIFOEnabled: the first record's MessageGroupId attribute. */
    private static void refuseFifo(List<IncomingMessage> batch) {
        if (!batch.isEmpty() && batch.get(0).fifo()) {
            throw new UnsupportedOperationException(
                    "FIFO queues are not supported in parallel mode, use the processBatch method instead");
        }
    }

    private static boolean failed(Outcome outcome) {
        return outcome != Outcome.APPLIED && outcome != Outcome.DUPLICATE;
    }

    private static BatchResult resultOf(List<IncomingMessage> batch, List<Outcome> outcomes) {
        List<String> failedIds = new ArrayList<>();
        Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
        for (int i = 0; i < batch.size(); i++) {
            counts.merge(outcomes.get(i), 1, Integer::sum);
            if (failed(outcomes.get(i))) {
                failedIds.add(batch.get(i).messageId());
            }
        }
        return new BatchResult(failedIds, counts);
    }
}
