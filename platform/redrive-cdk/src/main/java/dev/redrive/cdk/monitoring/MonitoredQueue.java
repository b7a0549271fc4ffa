package dev.redrive.cdk.monitoring;

import java.util.Objects;
import software.amazon.awscdk.services.sqs.IQueue;

/**
 * A queue {@link Monitoring} alarms on and charts.
 *
 * @param name           the queue's name, used in alarm names ({@code <name>-depth}, with the monitoring's prefix in
 *                       front when the name does not start with it) and labels: a plain string, not a token; for a
 *                       {@link Kind#DEAD_LETTER} queue, also the {@code DeadLetterQueue} dimension of the sweeper's
 *                       {@code Arrivals} (the queue's name, as the sweeper's routes give it)
 * @param queue          the queue
 * @param kind           what the queue is for, which decides its alarms
 * @param arrivalMeaning for a {@link Kind#FAILURE_RECORD}: what one arrival means, the start of its alarm's description
 *                       ("A dead-letter sweeper run failed ..."); null: a generic sentence
 */
public record MonitoredQueue(String name, IQueue queue, Kind kind, String arrivalMeaning) {

    /** What a queue is for. */
    public enum Kind {
        /** A consumer's source queue: age of the oldest message and depth. */
        SOURCE,
        /**
         * A consumer's dead-letter queue, normally empty and drained by the sweeper: age, depth, and arrivals above
         * their learned baseline (from the sweeper's {@code Arrivals}).
         */
        DEAD_LETTER,
        /**
         * A record of failed deliveries that nothing drains (a schedule's DLQ): only arrivals alarm, so the alarm
         * clears by itself; an age or depth alarm would stay in ALARM until someone purged the queue.
         */
        FAILURE_RECORD
    }

    /** Checks every part but the meaning is given. */
    public MonitoredQueue {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(kind, "kind");
        if (arrivalMeaning != null && kind != Kind.FAILURE_RECORD) {
            throw new IllegalArgumentException(
                    "monitored queue " + name + ": only a FAILURE_RECORD has an arrival meaning, it is " + kind);
        }
    }

    /** A queue whose alarms say what its kind means. */
    public MonitoredQueue(String name, IQueue queue, Kind kind) {
        this(name, queue, kind, null);
    }

    /** A failure record whose arrival means {@code arrivalMeaning} (a sentence: what failed, what it holds). */
    public static MonitoredQueue failureRecord(String name, IQueue queue, String arrivalMeaning) {
        return new MonitoredQueue(name, queue, Kind.FAILURE_RECORD, Objects.requireNonNull(arrivalMeaning, "meaning"));
    }

    /** Whether it holds dead letters (charted with the DLQs). */
    public boolean deadLetter() {
        return kind != Kind.SOURCE;
    }
}
