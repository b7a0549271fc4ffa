package dev.redrive.infra.monitoring;

/**
 * The custom metrics the functions emit as CloudWatch EMF, which the alarms and the dashboard read. The functions
 * must emit exactly these names, namespace and dimension sets for the alarms to see them.
 *
 * <ul>
 *   <li>Consumers: {@value #PROCESSED}, {@value #DUPLICATES} with dimension {@value #CONSUMER};
 *       {@value #DEAD_LETTERED} with dimensions {@value #CONSUMER} and {@value #FAILURE_CLASS}.</li>
 *   <li>Sweeper: {@value #QUARANTINED} with dimension {@value #FAILURE_CLASS}; {@value #REPLAYED},
 *       {@value #REPLAY_FAILED}, {@value #ALREADY_APPLIED}, {@value #ARCHIVED} (any dimensions);
 *       {@value #OLDEST_UNRESOLVED_QUARANTINE_AGE}, {@value #REPLAYS_SENT} and {@value #REPLAYS_RETURNED} (each run's
 *       own counts) with no dimension (the alarms read them without one); {@value #REPLAY_SUCCESS_RATE}, all-time,
 *       which no alarm reads.</li>
 * </ul>
 */
public final class RedriveMetrics {

    public static final String NAMESPACE = "Redrive";

    public static final String CONSUMER = "Consumer";
    public static final String FAILURE_CLASS = "FailureClass";

    public static final String PROCESSED = "Processed";
    public static final String DUPLICATES = "Duplicates";
    public static final String DEAD_LETTERED = "DeadLettered";
    public static final String QUARANTINED = "Quarantined";
    public static final String REPLAYED = "Replayed";
    public static final String REPLAY_FAILED = "ReplayFailed";
    public static final String ALREADY_APPLIED = "AlreadyApplied";
    public static final String ARCHIVED = "Archived";
    public static final String OLDEST_UNRESOLVED_QUARANTINE_AGE = "OldestUnresolvedQuarantineAgeSeconds";
    public static final String REPLAY_SUCCESS_RATE = "ReplaySuccessRate";
    public static final String REPLAYS_SENT = "ReplaysSent";
    public static final String REPLAYS_RETURNED = "ReplaysReturned";

    private RedriveMetrics() {}
}
