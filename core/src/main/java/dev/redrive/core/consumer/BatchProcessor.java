package dev.redrive.core.consumer;

import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.consumer.QueueGateway.VisibilityChange;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
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
        long startNanos = System.nanoTime();
        long deadlineNanos = startNanos + Math.max(0, budget.toNanos());
        Run run = new Run(consumer, batch, deadlineNanos, remaining);
        List<Future<?>> tasks = new ArrayList<>();
        for (List<Integer> lane : lanes(batch)) {
            tasks.add(executor.submit(() -> run.lane(lane)));
        }
        awaitAll(tasks, deadlineNanos, run);
        List<BatchReport.Entry> entries = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            entries.add(new BatchReport.Entry(batch.get(i), run.outcomes.get(i)));
        }
        return settle(consumer, entries, run, startNanos);
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

    /** One batch in flight: its outcomes, and the dead letters sent from inside their lanes. */
    private final class Run {
        final IdempotentConsumer<?> consumer;
        final List<IncomingMessage> batch;
        final long deadlineNanos;
        final Supplier<Duration> remaining;
        final AtomicReferenceArray<MessageOutcome> outcomes;
        /** Per position: TRUE when sent from its lane, FALSE when that send failed, null when left to settle. */
        final AtomicReferenceArray<Boolean> sentFromLane;

        Run(IdempotentConsumer<?> consumer, List<IncomingMessage> batch, long deadlineNanos, Supplier<Duration> rem) {
            this.consumer = consumer;
            this.batch = batch;
            this.deadlineNanos = deadlineNanos;
            this.remaining = rem;
            this.outcomes = new AtomicReferenceArray<>(batch.size());
            this.sentFromLane = new AtomicReferenceArray<>(batch.size());
        }

        boolean timeLeft() {
            return System.nanoTime() < deadlineNanos && !Thread.currentThread().isInterrupted();
        }

        /** Gives up on whatever has no outcome yet, for good: a lane finishing later cannot overwrite it. */
        void timeOutUnfinished() {
            for (int i = 0; i < batch.size(); i++) {
                outcomes.compareAndSet(i, null, new MessageOutcome.TimedOut(null));
            }
        }

        void lane(List<Integer> lane) {
            Integer head = null; // the position the rest of the lane waits behind
            for (int n = 0; n < lane.size(); n++) {
                int position = lane.get(n);
                IncomingMessage m = batch.get(position);
                if (head != null) {
                    holdBack(position, head);
                    continue;
                }
                if (!timeLeft()) {
                    outcomes.compareAndSet(position, null, new MessageOutcome.TimedOut(null));
                    head = position;
                    continue;
                }
                MessageOutcome outcome = processor.process(consumer, m, remaining);
                boolean done = outcome.acknowledged();
                if (outcome instanceof MessageOutcome.DeadLettered dead && n + 1 < lane.size()) {
                    done = sendFromLane(position, m, dead);
                }
                boolean recorded = outcomes.compareAndSet(position, null, outcome);
                if (!recorded || !done) {
                    head = position;
                }
            }
        }

        /** Sends a dead-lettered head with successors at once; its group moves on only once it is in the DLQ. */
        private boolean sendFromLane(int position, IncomingMessage m, MessageOutcome.DeadLettered dead) {
            boolean sent = queues.deadLetter(
                            m.sourceQueue(), List.of(new DeadLetter(m, consumer.name(), dead.key(), dead.failure())))
                    .isEmpty();
            sentFromLane.set(position, sent);
            return sent;
        }

        private void holdBack(int position, int head) {
            IncomingMessage m = batch.get(position);
            IncomingMessage h = batch.get(head);
            MessageOutcome headOutcome = outcomes.get(head);
            MessageOutcome.SkippedAfterGroupFailure skipped = new MessageOutcome.SkippedAfterGroupFailure(
                    m.messageGroupId(), h.messageId(), delayOf(headOutcome));
            if (outcomes.compareAndSet(position, null, skipped) && timeLeft()) {
                processor.recordWaiting(consumer, m, waitingBehind(m.messageGroupId(), h, headOutcome));
            }
        }
    }

    /** The delay a held-back message shares with its head: the head's retry or deferral, else none. */
    private static Integer delayOf(MessageOutcome head) {
        if (head instanceof MessageOutcome.RetryLater retry) {
            return retry.delaySeconds();
        }
        if (head instanceof MessageOutcome.Deferred deferred) {
            return deferred.delaySeconds();
        }
        return null;
    }

    /** Why a message waited: its head's class and dependency, under an error type of its own (never POISON). */
    private static Classification waitingBehind(String group, IncomingMessage head, MessageOutcome outcome) {
        String what;
        String dependency = null;
        FailureClass failureClass = FailureClass.TRANSIENT;
        if (outcome instanceof MessageOutcome.RetryLater retry) {
            Classification c = retry.classification();
            what = "failed " + c.failureClass() + " " + c.errorType();
            dependency = c.dependency();
        } else if (outcome instanceof MessageOutcome.DeadLettered dead) {
            what = "failed " + dead.failure().failureClass() + " "
                    + dead.failure().classification().errorType() + " and could not be sent to the dead-letter queue";
        } else if (outcome instanceof MessageOutcome.Deferred deferred) {
            what = "was being processed elsewhere until " + deferred.leaseExpiresAt();
        } else {
            what = "did not finish ("
                    + (outcome == null ? "no outcome" : outcome.getClass().getSimpleName()) + ")";
        }
        return new Classification(
                failureClass,
                MessageProcessor.WAITING_BEHIND_GROUP_HEAD,
                "message group " + group + " waited behind message " + head.messageId() + ", which " + what
                        + "; this message never ran",
                dependency);
    }

    private static void awaitAll(List<Future<?>> tasks, long deadlineNanos, Run run) {
        boolean late = false;
        for (Future<?> task : tasks) {
            long left = deadlineNanos - System.nanoTime();
            try {
                if (left <= 0) {
                    late |= !task.isDone();
                    continue;
                }
                task.get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                late = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                late = true;
                break;
            } catch (ExecutionException | CancellationException e) {
                // A lane never throws (MessageProcessor turns every failure into an outcome); a missing outcome is
                // reported as timed out below, which is the safe reading.
            }
        }
        // The outcomes are fixed before any lane is interrupted, so an effect that gives up on its interrupt cannot
        // turn a timed-out record into a retry after the report was made.
        run.timeOutUnfinished();
        if (late) {
            tasks.forEach(t -> t.cancel(true));
        }
    }

    private BatchReport settle(IdempotentConsumer<?> consumer, List<BatchReport.Entry> entries, Run run, long start) {
        int cap = MAX_VISIBILITY_SECONDS
                - RECEIVE_TO_INVOCATION_MARGIN_SECONDS
                - (int) TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        Map<String, List<VisibilityChange>> visibility = new LinkedHashMap<>();
        Map<String, List<DeadLetter>> deadLetters = new LinkedHashMap<>();
        Set<String> notDeadLettered = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            BatchReport.Entry e = entries.get(i);
            IncomingMessage m = e.message();
            Integer seconds = delayOf(e.outcome());
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
