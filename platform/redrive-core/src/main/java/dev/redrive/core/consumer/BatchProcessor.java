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
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Processes a batch: records of a standard queue concurrently, records of a FIFO queue in order within each message
 * group (groups concurrently; after a failure only the rest of that group waits), at most {@code concurrency} lanes
 * at once.
 *
 * <p>It returns before the invocation's deadline even if an effect hangs: what has not finished by then is reported
 * as failed and its claim is left to expire. Then, in as few calls as possible, it changes the visibility of
 * messages to retry (full-jitter delay) or to defer (until the other holder's lease ends), and sends messages that
 * no retry can fix to the dead-letter queue.
 *
 * <p>Each batch runs its lanes on threads of its own, started for it: a lane that hangs (an effect blocked in I/O
 * that ignores interrupts) holds only its own thread, never a slot later batches need, so later records of the same
 * container still run. Such a lane may outlive the report; {@link #awaitLanesEnded} lets the caller wait until it has
 * ended before the sandbox is allowed to freeze (the Lambda handler does not return before: an effect left running
 * in a frozen sandbox could resume when it is thawed, after its lease).
 *
 * <p>FIFO order holds through failures: a message of a group runs only once the one before it is done with — applied,
 * a duplicate, or durably in the dead-letter queue (a head dead-lettered with messages of its group behind it is sent
 * at once, inside its lane, and its group moves on only if the send succeeded). Messages held back behind a failed
 * head come back with the head's delay, and their claims record that they waited behind it.
 */
public final class BatchProcessor {

    /** SQS keeps a received message invisible for at most 12 hours from its receive; a longer change is refused. */
    static final int MAX_VISIBILITY_SECONDS = 12 * 60 * 60;
    /**
     * Kept back from that limit: Lambda may have received the batch up to a 5-minute batching window before the
     * invocation started, plus its own latency.
     */
    static final int RECEIVE_TO_INVOCATION_MARGIN_SECONDS = 10 * 60;

    private final MessageProcessor processor;
    private final QueueGateway queues;
    private final int concurrency;
    private final LaneThreads threads = new LaneThreads();

    /**
     * @param concurrency the most lanes (records of a standard queue, groups of a FIFO queue) of one batch processed
     *                    at once
     */
    public BatchProcessor(MessageProcessor processor, QueueGateway queues, int concurrency) {
        this.processor = Objects.requireNonNull(processor, "processor");
        this.queues = Objects.requireNonNull(queues, "queues");
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
        }
        this.concurrency = concurrency;
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
        long startNanos = System.nanoTime();
        long deadlineNanos = startNanos + Math.max(0, budget.toNanos());
        BatchRun run = new BatchRun(processor, queues, consumer, batch, deadlineNanos, remaining);
        Queue<List<Integer>> pending = new ConcurrentLinkedQueue<>(lanes(batch));
        int workers = Math.min(concurrency, pending.size());
        CountDownLatch finished = new CountDownLatch(workers);
        List<Thread> started = new ArrayList<>(workers);
        for (int w = 0; w < workers; w++) {
            started.add(threads.start(() -> {
                try {
                    for (List<Integer> lane = pending.poll(); lane != null; lane = pending.poll()) {
                        run.lane(lane);
                    }
                } finally {
                    finished.countDown();
                }
            }));
        }
        awaitLanes(finished, deadlineNanos, run, pending, started);
        List<BatchReport.Entry> entries = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            entries.add(new BatchReport.Entry(batch.get(i), run.outcomes.get(i)));
        }
        return settle(consumer, entries, run, startNanos);
    }

    /**
     * Waits until no lane of any batch is running any more, at most {@code timeout}.
     *
     * @return true when none is running
     */
    public boolean awaitLanesEnded(Duration timeout) throws InterruptedException {
        return threads.awaitNoneRunning(timeout);
    }

    /** How many lane threads are running now (of reported batches too: hung effects). */
    public int lanesRunning() {
        return threads.running();
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

    private static void awaitLanes(
            CountDownLatch finished,
            long deadlineNanos,
            BatchRun run,
            Queue<List<Integer>> pending,
            List<Thread> threads) {
        boolean inTime;
        try {
            inTime = finished.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            inTime = false;
        }
        if (!inTime) {
            pending.clear(); // lanes not started by now never start
        }
        // The outcomes are fixed before any lane is interrupted, so an effect that gives up on its interrupt cannot
        // turn a timed-out record into a retry after the report was made.
        run.timeOutUnfinished();
        if (!inTime) {
            threads.forEach(Thread::interrupt);
            return;
        }
        // Every lane has signalled its end, but its thread has yet to leave, and until then it counts as running: a
        // caller asking what still runs after the report (the Lambda handler, before it lets the sandbox freeze) would
        // take a finished lane for one left running past the budget. They are joined, within what is left of it.
        try {
            for (Thread t : threads) {
                long leftNanos = deadlineNanos - System.nanoTime();
                if (leftNanos <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedJoin(t, leftNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private BatchReport settle(
            IdempotentConsumer<?> consumer, List<BatchReport.Entry> entries, BatchRun run, long start) {
        int cap = MAX_VISIBILITY_SECONDS
                - RECEIVE_TO_INVOCATION_MARGIN_SECONDS
                - (int) TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        Map<String, List<VisibilityChange>> visibility = new LinkedHashMap<>();
        Map<String, List<DeadLetter>> deadLetters = new LinkedHashMap<>();
        Set<String> notDeadLettered = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            BatchReport.Entry e = entries.get(i);
            IncomingMessage m = e.message();
            Integer seconds = BatchRun.delayOf(e.outcome());
            if (e.outcome() instanceof MessageOutcome.SkippedAfterGroupFailure skipped) {
                seconds = skipped.delaySeconds();
            }
            if (seconds != null && m.receiptHandle() != null) {
                visibility
                        .computeIfAbsent(m.sourceQueue(), q -> new ArrayList<>())
                        .add(new VisibilityChange(
                                m.messageId(), m.receiptHandle(), Math.max(0, Math.min(cap, seconds))));
            }
            if (e.outcome() instanceof MessageOutcome.DeadLettered dead) {
                Boolean sent = run.sentFromLane.get(i);
                if (sent == null) {
                    deadLetters
                            .computeIfAbsent(m.sourceQueue(), q -> new ArrayList<>())
                            .add(new DeadLetter(m, consumer.name(), dead.key(), dead.failure()));
                } else if (!sent) {
                    notDeadLettered.add(m.messageId());
                }
            }
        }
        deadLetters.forEach((queue, letters) -> notDeadLettered.addAll(queues.deadLetter(queue, letters)));
        Set<String> visibilityNotChanged = new HashSet<>();
        visibility.forEach((queue, changes) -> visibilityNotChanged.addAll(queues.changeVisibility(queue, changes)));

        List<String> failed = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        for (BatchReport.Entry e : entries) {
            String id = e.message().messageId();
            if (!e.outcome().acknowledged() || notDeadLettered.contains(id)) {
                failed.add(id);
            }
            if (visibilityNotChanged.contains(id)) {
                unchanged.add(id);
            }
        }
        return new BatchReport(entries, failed, unchanged);
    }
}
