package dev.redrive.core.names;

import java.util.HashSet;
import java.util.Set;

/**
 * The names the functions, the IaC, the local run and the CLI must agree on, in one place: the sweeper's handler
 * ({@code QUARKUS_LAMBDA_HANDLER}), and the CloudWatch metrics the functions emit as EMF and the alarms and
 * the dashboard read. It lives in core because core is the one module every other one depends on that brings no
 * dependency along (the CDK app takes it for these constants only).
 */
public final class RedriveNames {

    private RedriveNames() {}

    /** The handlers of Redrive's own functions ({@code QUARKUS_LAMBDA_HANDLER}). */
    public static final class Handlers {

        /** The scheduled dead-letter sweeper. */
        public static final String DLQ_SWEEPER = "dlq-sweeper";

        private Handlers() {}
    }

    /**
     * The variables that set the pace of replays ({@code ReplayPace}): the IaC writes them to the sweeper's
     * environment, the sweeper reads them as {@code redrive.replays.*}, and the CLI and the local run's operator read
     * the same ones, so a person's replays keep the sweeper's pace.
     */
    public static final class ReplayPaceVariables {

        /** Replays per second of a lane not in the lane rates. */
        public static final String RATE_PER_SECOND = "REDRIVE_REPLAYS_RATE_PER_SECOND";

        /** {@code lane=perSecond} pairs, separated by commas. */
        public static final String LANE_RATES = "REDRIVE_REPLAYS_LANE_RATES";

        /** How far ahead a replay may be booked, ISO-8601 ({@code PT15M}). */
        public static final String HORIZON = "REDRIVE_REPLAYS_HORIZON";

        private ReplayPaceVariables() {}
    }

    /** Where the shared state of the circuit breaker of a dependency (any name a team gives it) lives. */
    public static final class Dependencies {

        /** The control-table partition key of a dependency's breaker is this prefix and the dependency's name. */
        public static final String BREAKER_KEY_PREFIX = "breaker#";

        private Dependencies() {}
    }

    /** The dimensions the metrics are emitted with. */
    public static final class Dimensions {

        public static final String CONSUMER = "Consumer";
        public static final String FAILURE_CLASS = "FailureClass";
        public static final String DEAD_LETTER_QUEUE = "DeadLetterQueue";
        public static final String STATE = "State";
        /** A circuit breaker's dependency ({@code mail-provider}). */
        public static final String DEPENDENCY = "Dependency";

        private Dimensions() {}
    }

    /** The custom metrics, namespace {@value #NAMESPACE}. */
    public static final class Metrics {

        public static final String NAMESPACE = "Redrive";

        // Consumers: by Consumer.
        public static final String PROCESSED = "Processed";
        public static final String DUPLICATES = "Duplicates";
        public static final String DEFERRED = "Deferred";
        public static final String TIMED_OUT = "TimedOut";
        public static final String SUPERSEDED = "Superseded";
        public static final String HELD_BEHIND_GROUP_HEAD = "HeldBehindGroupHead";
        public static final String VISIBILITY_NOT_CHANGED = "VisibilityNotChanged";
        public static final String EFFECT_LATENCY = "EffectLatency";
        // Consumers: by Consumer and FailureClass.
        public static final String FAILURES = "Failures";
        public static final String DEAD_LETTERED = "DeadLettered";
        /** Messages refused by their dependency's open circuit breaker and deferred (by Consumer). */
        public static final String DEFERRED_BY_BREAKER = "DeferredByBreaker";
        // Consumers' circuit breakers: by Dependency (transitions by Dependency and State, the state entered).
        public static final String BREAKER_TRANSITIONS = "BreakerTransitions";
        public static final String BREAKER_CALLS_REFUSED = "BreakerCallsRefused";
        /** The longest a refusing breaker had been open (since it first opened in this outage), in seconds. */
        public static final String BREAKER_OPEN_SECONDS = "BreakerOpenSeconds";

        public static final String BREAKER_PROBES_SUCCEEDED = "BreakerProbesSucceeded";
        public static final String BREAKER_PROBES_FAILED = "BreakerProbesFailed";
        /** The breaker's own store failed; the breaker let the call through. */
        public static final String BREAKER_STORE_FAILURES = "BreakerStoreFailures";

        // Sweeper: without dimensions (the alarms read them so).
        public static final String OLDEST_UNRESOLVED_QUARANTINE_AGE = "OldestUnresolvedQuarantineAgeSeconds";
        /** All-time, for the dashboard; no alarm reads it (early failures would hold one in ALARM). */
        public static final String REPLAY_SUCCESS_RATE = "ReplaySuccessRate";
        /** This run's replays that came back to a DLQ; the success-rate alarm sums it and {@link #REPLAYED}. */
        public static final String REPLAYS_RETURNED = "ReplaysReturned";
        /** This run's replays sent. */
        public static final String REPLAYED = "Replayed";

        public static final String ALREADY_APPLIED = "AlreadyApplied";
        public static final String REPLAY_REFUSED = "ReplayRefused";
        public static final String REPLAY_DEFERRED = "ReplayDeferred";
        /** Replays held by their lane's pace (breaker open, or booked up to the horizon). */
        public static final String REPLAY_HELD = "ReplayHeld";
        /** Replays sent with a delay by their lane's pace. */
        public static final String REPLAY_PACED = "ReplayPaced";

        public static final String ARCHIVED = "Archived";
        // Sweeper: by FailureClass (and ReplaySuccessRate again).
        public static final String QUARANTINED = "Quarantined";
        public static final String REPLAY_FAILED = "ReplayFailed";
        // Sweeper: by DeadLetterQueue; Quarantine by DeadLetterQueue and State.
        public static final String DEAD_LETTER_QUEUE_DEPTH = "DeadLetterQueueDepth";
        public static final String OLDEST_DEAD_LETTER_AGE = "OldestDeadLetterAgeSeconds";
        public static final String ARRIVALS = "Arrivals";
        public static final String QUARANTINE = "Quarantine";

        /** Every metric a consumer function emits. */
        public static final Set<String> CONSUMER_EMITTED = Set.of(
                PROCESSED,
                DUPLICATES,
                DEFERRED,
                TIMED_OUT,
                SUPERSEDED,
                HELD_BEHIND_GROUP_HEAD,
                VISIBILITY_NOT_CHANGED,
                EFFECT_LATENCY,
                FAILURES,
                DEAD_LETTERED,
                DEFERRED_BY_BREAKER,
                BREAKER_TRANSITIONS,
                BREAKER_CALLS_REFUSED,
                BREAKER_OPEN_SECONDS,
                BREAKER_PROBES_SUCCEEDED,
                BREAKER_PROBES_FAILED,
                BREAKER_STORE_FAILURES);

        /** Every metric the sweeper function emits. */
        public static final Set<String> SWEEPER_EMITTED = Set.of(
                OLDEST_UNRESOLVED_QUARANTINE_AGE,
                REPLAY_SUCCESS_RATE,
                REPLAYS_RETURNED,
                REPLAYED,
                ALREADY_APPLIED,
                REPLAY_REFUSED,
                REPLAY_DEFERRED,
                REPLAY_HELD,
                REPLAY_PACED,
                ARCHIVED,
                QUARANTINED,
                REPLAY_FAILED,
                DEAD_LETTER_QUEUE_DEPTH,
                OLDEST_DEAD_LETTER_AGE,
                ARRIVALS,
                QUARANTINE);

        /** Outbox events the relay published (and marked), per invocation. */
        public static final String OUTBOX_PUBLISHED = "OutboxPublished";
        /** Milliseconds from an event's commit (its order's transaction) to its publication, per event. */
        public static final String OUTBOX_PUBLISH_LAG = "OutboxPublishLagMs";
        /** Outbox events a publish failed for (the stream retries them; the sweep republishes them). */
        public static final String OUTBOX_PUBLISH_FAILURES = "OutboxPublishFailures";
        /** Outbox events the scheduled sweep republished: the relay had missed them. */
        public static final String OUTBOX_REPUBLISHED = "OutboxRepublished";
        /** Age of the oldest outbox event not yet published, at the sweep (0 when there is none). */
        public static final String OLDEST_UNPUBLISHED_OUTBOX_AGE = "OldestUnpublishedOutboxAgeSeconds";

        /** Every metric the outbox relay and its sweep emit. */
        public static final Set<String> OUTBOX_EMITTED = Set.of(
                OUTBOX_PUBLISHED,
                OUTBOX_PUBLISH_LAG,
                OUTBOX_PUBLISH_FAILURES,
                OUTBOX_REPUBLISHED,
                OLDEST_UNPUBLISHED_OUTBOX_AGE);

        /**
         * Every metric of namespace {@value #NAMESPACE} that Redrive's functions emit: all a platform alarm may read. An
         * application's own functions add theirs (the checkout example's {@code CheckoutNames.Metrics}).
         */
        public static final Set<String> EMITTED = union(union(CONSUMER_EMITTED, SWEEPER_EMITTED), OUTBOX_EMITTED);

        private Metrics() {}

        /** The names in {@code a} or {@code b}. */
        public static Set<String> union(Set<String> a, Set<String> b) {
            Set<String> all = new HashSet<>(a);
            all.addAll(b);
            return Set.copyOf(all);
        }
    }
}
