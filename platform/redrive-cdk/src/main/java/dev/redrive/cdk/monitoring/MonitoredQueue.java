package dev.redrive.cdk.monitoring;

import java.util.Objects;
import software.amazon.awscdk.services.sqs.IQueue;

/**
 * A queue {@link Monitoring} alarms on and charts.
 *
 * @param name  the queue's name, used in alarm names ({@code <name>-depth}, with the monitoring's prefix in front when
 *              the name does not start with it) and labels: a plain string, not a token
 * @param queue the queue
 * @param kind  what the queue is for, which decides its alarms
 */
public record MonitoredQueue(String name, IQueue queue, Kind kind) {

    /** What a queue is for. */
    public enum Kind {
        /** A consumer's source queue: age of the oldest message and depth. */
        SOURCE,
        /** A consumer's dead-letter queue, normally empty and drained by the sweeper: age, depth and any arrival. */
        DEAD_LETTER,
        /**
         * A record of failed deliveries that nothing drains (a schedule's DLQ): only arrivals alarm, so the alarm
         * clears by itself; an age or depth alarm would stay in ALARM until someone purged the queue.
         */
        FAILURE_RECORD
    }

    /** Checks every part is given. */
    public MonitoredQueue {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(kind, "kind");
    }

    /** Whether it holds dead letters (charted with the DLQs). */
    public boolean deadLetter() {
        return kind != Kind.SOURCE;
    }
}
