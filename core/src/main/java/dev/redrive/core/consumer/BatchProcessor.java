package dev.redrive.core.consumer;

import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.consumer.QueueGateway.VisibilityChange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Processes a batch: records of a standard queue concurrently (bounded by the executor), records of a FIFO queue in
 * order within each message group (groups concurrently; after a failure only the rest of that group waits).
 *
 * <p>It returns before the invocation's deadline even if an effect hangs: what has not finished by then is reported
 * as failed and its claim is left to expire. Then, in as few calls as possible, it changes the visibility of
 * messages to retry (full-jitter delay) or to defer (until the other holder's lease ends), and sends messages that
 * no retry can fix to the dead-letter queue.
 */
public final class BatchProcessor {

    private final MessageProcessor processor;
    private final ExecutorService executor;
    private final QueueGateway queues;

    public BatchProcessor(MessageProcessor processor, ExecutorService executor, QueueGateway queues) {
        this.processor = Objects.requireNonNull(processor, "processor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.queues = Objects.requireNonNull(queues, "queues");
    }

    /**
     * @param budget    how long processing may take before the unfinished records are given up on (the invocation's
     *                  remaining time minus a safety margin for the queue calls and the response)
     * @param remaining the invocation's remaining time, read when each claim is made
     */
    public BatchReport process(
            IdempotentConsumer<?> consumer,
            List<IncomingMessage> batch,
            Duration budget,
            Supplier<Duration> remaining) {
        long deadlineNanos = System.nanoTime() + Math.max(0, budget.toNanos());
        AtomicReferenceArray<MessageOutcome> outcomes = new AtomicReferenceArray<>(batch.size());
        List<Future<?>> tasks = new ArrayList<>();
        for (List<Integer> lane : lanes(batch)) {
            tasks.add(executor.submit(() -> runLane(consumer, batch, lane, outcomes, deadlineNanos, remaining)));
        }
        awaitAll(tasks, deadlineNanos);
        List<BatchReport.Entry> entries = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            // Whatever has no outcome at the deadline is timed out, for good: a lane interrupted later cannot
            // overwrite it (it sets outcomes only where none is set).
            outcomes.compareAndSet(i, null, new MessageOutcome.TimedOut(null));
            entries.add(new BatchReport.Entry(batch.get(i), outcomes.get(i)));
        }
        return settle(consumer, entries);
    }

    /**
     * Lanes of batch positions processed one after another: one per message on a standard queue, one per message
     * group (in batch order) on a FIFO queue.
     */
    static List<List<Integer>> lanes(List<IncomingMessage> batch) {
        Map<String, List<Integer>> byGroup = new LinkedHashMap<>();
        List<List<Integer>> lanes = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            IncomingMessage m = batch.get(i);
            if (m.fifo()) {
                byGroup.computeIfAbsent(m.messageGroupId(), g -> new ArrayList<>())
                        .add(i);
            } else {
                lanes.add(List.of(i));
            }
        }
        lanes.addAll(byGroup.values());
        return lanes;
    }

    private void runLane(
            IdempotentConsumer<?> consumer,
            List<IncomingMessage> batch,
            List<Integer> lane,
            AtomicReferenceArray<MessageOutcome> outcomes,
            long deadlineNanos,
            Supplier<Duration> remaining) {
        boolean laneFailed = false;
        for (int position : lane) {
            IncomingMessage m = batch.get(position);
            if (laneFailed) {
                outcomes.compareAndSet(position, null, new MessageOutcome.SkippedAfterGroupFailure(m.messageGroupId()));
                continue;
            }
            if (System.nanoTime() >= deadlineNanos || Thread.currentThread().isInterrupted()) {
                outcomes.compareAndSet(position, null, new MessageOutcome.TimedOut(null));
                laneFailed = true;
                continue;
            }
            MessageOutcome outcome = processor.process(consumer, m, remaining);
            boolean recorded = outcomes.compareAndSet(position, null, outcome);
            laneFailed = !recorded || !outcome.acknowledged();
        }
    }

    private static void awaitAll(List<Future<?>> tasks, long deadlineNanos) {
        for (Future<?> task : tasks) {
            long left = deadlineNanos - System.nanoTime();
            try {
                if (left <= 0) {
                    if (!task.isDone()) {
                        task.cancel(true);
                    }
                    continue;
                }
                task.get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                task.cancel(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                task.cancel(true);
            } catch (ExecutionException | CancellationException e) {
                // A lane never throws (MessageProcessor turns every failure into an outcome); a missing outcome is
                // reported as timed out below, which is the safe reading.
            }
        }
    }

    private BatchReport settle(IdempotentConsumer<?> consumer, List<BatchReport.Entry> entries) {
        Map<String, List<VisibilityChange>> visibility = new LinkedHashMap<>();
        Map<String, List<DeadLetter>> deadLetters = new LinkedHashMap<>();
        for (BatchReport.Entry e : entries) {
            IncomingMessage m = e.message();
            Integer seconds = null;
            if (e.outcome() instanceof MessageOutcome.RetryLater retry) {
                seconds = retry.delaySeconds();
            } else if (e.outcome() instanceof MessageOutcome.Deferred deferred) {
                seconds = deferred.delaySeconds();
            }
            if (seconds != null && m.receiptHandle() != null) {
                visibility
                        .computeIfAbsent(m.sourceQueue(), q -> new ArrayList<>())
                        .add(new VisibilityChange(m.messageId(), m.receiptHandle(), seconds));
            }
            if (e.outcome() instanceof MessageOutcome.DeadLettered dead) {
                deadLetters
                        .computeIfAbsent(m.sourceQueue(), q -> new ArrayList<>())
                        .add(new DeadLetter(m, consumer.name(), dead.key(), dead.failure()));
            }
        }
        Set<String> notDeadLettered = new HashSet<>();
        deadLetters.forEach((queue, letters) -> notDeadLettered.addAll(queues.deadLetter(queue, letters)));
        visibility.forEach(queues::changeVisibility);

        List<String> failed = new ArrayList<>();
        for (BatchReport.Entry e : entries) {
            String id = e.message().messageId();
            if (!e.outcome().acknowledged() || notDeadLettered.contains(id)) {
                failed.add(id);
            }
        }
        return new BatchReport(entries, failed);
    }
}
