package dev.redrive.core.consumer;

import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * One batch in flight: the outcome of each position, the dead letters sent from inside their lanes, and how one lane
 * runs — in order, a message only once the one before it is done with, the rest held back behind a failed head.
 */
final class BatchRun {

    private final MessageProcessor processor;
    private final QueueGateway queues;
    final IdempotentConsumer<?> consumer;
    final List<IncomingMessage> batch;
    final long deadlineNanos;
    final Supplier<Duration> remaining;
    final AtomicReferenceArray<MessageOutcome> outcomes;
    /** Per position: TRUE when sent from its lane, FALSE when that send failed, null when left to settle. */
    final AtomicReferenceArray<Boolean> sentFromLane;

    BatchRun(
            MessageProcessor processor,
            QueueGateway queues,
            IdempotentConsumer<?> consumer,
            List<IncomingMessage> batch,
            long deadlineNanos,
            Supplier<Duration> rem) {
        this.processor = processor;
        this.queues = queues;
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
        MessageOutcome.SkippedAfterGroupFailure skipped =
                new MessageOutcome.SkippedAfterGroupFailure(m.messageGroupId(), h.messageId(), delayOf(headOutcome));
        if (outcomes.compareAndSet(position, null, skipped) && timeLeft()) {
            processor.recordWaiting(consumer, m, waitingBehind(m.messageGroupId(), h, headOutcome));
        }
    }

    /** The delay a held-back message shares with its head: the head's retry or deferral, else none. */
    static Integer delayOf(MessageOutcome head) {
        if (head instanceof MessageOutcome.RetryLater retry) {
            return retry.delaySeconds();
        }
        if (head instanceof MessageOutcome.Deferred deferred) {
            return deferred.delaySeconds();
        }
        if (head instanceof MessageOutcome.RefusedByBreaker refused) {
            return refused.delaySeconds();
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
        } else if (outcome instanceof MessageOutcome.RefusedByBreaker refused) {
            what = "was refused by the open circuit breaker of " + refused.dependency();
            dependency = refused.dependency();
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
}
