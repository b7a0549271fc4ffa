package dev.redrive.core.sweeper;

import dev.redrive.core.failure.FailureClass;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What one sweep of one dead-letter queue did. Mutable while the sweep runs, single-threaded. */
public final class SweepReport {

    private final Route route;
    private boolean leaseHeldElsewhere;
    private boolean fencedOut;
    private final Map<FailureClass, Integer> quarantined = new EnumMap<>(FailureClass.class);
    private int alreadyQuarantined;
    private final Map<FailureClass, Integer> replaysReturned = new EnumMap<>(FailureClass.class);
    private final Map<String, Integer> replayOutcomes = new LinkedHashMap<>();
    private int archivedToStore;
    private final List<String> archiveObjects = new ArrayList<>();
    private Duration oldestUnresolvedAge;
    private Duration oldestArrivalAge = Duration.ZERO;
    private int paced;
    private Duration longestDelay = Duration.ZERO;
    private final Map<String, String> heldByLane = new LinkedHashMap<>();
    private final Map<String, String> recordFailures = new LinkedHashMap<>();

    public SweepReport(Route route) {
        this.route = route;
    }

    public Route route() {
        return route;
    }

    void leaseHeldElsewhere() {
        leaseHeldElsewhere = true;
    }

    void fencedOut() {
        fencedOut = true;
    }

    void quarantined(FailureClass c) {
        quarantined.merge(c, 1, Integer::sum);
    }

    void alreadyQuarantined() {
        alreadyQuarantined++;
    }

    void replayReturned(FailureClass c) {
        replaysReturned.merge(c, 1, Integer::sum);
    }

    void replayOutcome(String type) {
        replayOutcomes.merge(type, 1, Integer::sum);
    }

    /** A replay sent with a delay: it becomes visible at its slot in its lane's pace. */
    void paced(Duration delay) {
        paced++;
        if (delay.compareTo(longestDelay) > 0) {
            longestDelay = delay;
        }
    }

    /** A replay held by its lane's pace (the latest reason per lane is kept). */
    void held(String lane, String reason) {
        heldByLane.put(lane, reason);
    }

    /** Replays sent with a delay by their lane's pace. */
    public int pacedCount() {
        return paced;
    }

    /** The longest of those delays: the last paced replay of this run becomes visible this long after its send. */
    public Duration longestPaceDelay() {
        return longestDelay;
    }

    /** Why replays were held, by lane (the latest reason of each). */
    public Map<String, String> heldByLane() {
        return Map.copyOf(heldByLane);
    }

    /**
     * One record this run could not handle (its payload could not be read for the archive, its replay checks failed):
     * it was left as it was, the rest of the run went on, and the next run tries it again.
     *
     * @param step   what failed ("archive", "replay")
     * @param reason why, never holding payload content
     */
    void recordFailed(String quarantineId, String step, String reason) {
        recordFailures.put(quarantineId, step + ": " + reason);
    }

    /** The records this run could not handle, by id: the step that failed and why. */
    public Map<String, String> recordFailures() {
        return Map.copyOf(recordFailures);
    }

    void archived(String objectRef, int entries) {
        archiveObjects.add(objectRef);
        archivedToStore += entries;
    }

    void arrivalAged(Duration age) {
        if (age.compareTo(oldestArrivalAge) > 0) {
            oldestArrivalAge = age;
        }
    }

    /** How long the oldest dead letter received in this run had waited in the dead-letter queue. */
    public Duration oldestArrivalAge() {
        return oldestArrivalAge;
    }

    void oldestUnresolved(Duration age) {
        oldestUnresolvedAge = age;
    }

    /** Another sweeper held this queue's lease: this one did nothing. */
    public boolean skippedLeaseHeld() {
        return leaseHeldElsewhere;
    }

    /** The lease was taken over mid-run: the rest of the run was abandoned, its writes rejected. */
    public boolean wasFencedOut() {
        return fencedOut;
    }

    public Map<FailureClass, Integer> quarantinedByClass() {
        return Map.copyOf(quarantined);
    }

    public int quarantinedTotal() {
        return quarantined.values().stream().mapToInt(Integer::intValue).sum();
    }

    public int alreadyQuarantinedCount() {
        return alreadyQuarantined;
    }

    public Map<FailureClass, Integer> replaysReturnedByClass() {
        return Map.copyOf(replaysReturned);
    }

    /** Replay outcomes by type: Sent, AlreadyApplied, Deferred, Held, Refused, Conflict. */
    public Map<String, Integer> replayOutcomes() {
        return Map.copyOf(replayOutcomes);
    }

    public int archivedToStoreCount() {
        return archivedToStore;
    }

    public List<String> archiveObjects() {
        return List.copyOf(archiveObjects);
    }

    public Optional<Duration> oldestUnresolvedAge() {
        return Optional.ofNullable(oldestUnresolvedAge);
    }

    @Override
    public String toString() {
        return route.deadLetterQueue() + ": "
                + (leaseHeldElsewhere
                        ? "skipped (lease held elsewhere)"
                        : "quarantined " + quarantined + ", seen again " + alreadyQuarantined + ", replays returned "
                                + replaysReturned + ", replay outcomes " + replayOutcomes
                                + (paced == 0
                                        ? ""
                                        : ", paced " + paced + " (the last visible after " + longestDelay.toMillis()
                                                + " ms)")
                                + (heldByLane.isEmpty() ? "" : ", held " + heldByLane)
                                + ", archived "
                                + archivedToStore
                                + " in " + archiveObjects.size() + " object(s)"
                                + (recordFailures.isEmpty()
                                        ? ""
                                        : ", records failed (left for the next run) " + recordFailures)
                                + (fencedOut ? ", FENCED OUT" : ""));
    }
}
