package dev.redrive.core.replay;

import dev.redrive.core.quarantine.QuarantineRecord;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How fast replays may reach what they call, automatic or by a person. Replays are paced per <em>lane</em>: the
 * dependency their failure names ({@code email-provider}), or, for a failure that names none, their consumer ({@code
 * consumer:<name>}). A lane's replays are given slots one over its rate apart, booked in a store every sweeper and CLI
 * shares, and each is sent at once but becomes visible in its source queue only at its slot (SQS's per-message delay):
 * when a provider comes back, its backlog of dead letters reaches it at the rate, not in one second.
 *
 * @param perSecond replays per second of a lane not in {@code byLane}
 * @param byLane    replays per second by lane
 * @param horizon   how far ahead a slot may be booked (at most SQS's 15-minute delay); a lane booked up to it holds
 *                  its further replays for a later run
 */
public record ReplayPace(double perSecond, Map<String, Double> byLane, Duration horizon) {

    /** SQS delays a message by at most 15 minutes. */
    public static final Duration MAX_HORIZON = Duration.ofMinutes(15);

    /** Slots are kept to the millisecond, so no lane goes faster than this. */
    public static final double MAX_PER_SECOND = 1000;

    /** 10 replays a second per lane, booked up to 15 minutes ahead. */
    public static final ReplayPace DEFAULT = new ReplayPace(10, Map.of(), MAX_HORIZON);

    /** The prefix of a lane named after a consumer, for dead letters whose failure names no dependency. */
    public static final String CONSUMER_LANE_PREFIX = "consumer:";

    public ReplayPace {
        Objects.requireNonNull(horizon, "horizon");
        byLane = byLane == null ? Map.of() : Map.copyOf(byLane);
        check("the replay rate", perSecond);
        byLane.forEach((lane, rate) -> check("the replay rate of " + lane, rate));
        if (horizon.isNegative() || horizon.compareTo(MAX_HORIZON) > 0) {
            throw new IllegalArgumentException("the replay horizon must be between 0 and " + MAX_HORIZON
                    + " (SQS's longest delay), not " + horizon);
        }
    }

    private static void check(String what, Double rate) {
        if (rate == null || !(rate > 0) || rate > MAX_PER_SECOND) {
            throw new IllegalArgumentException(
                    what + " must be above 0 and at most " + (int) MAX_PER_SECOND + " per second, not " + rate);
        }
    }

    /** The lane of a dead letter: the dependency its failure names, else its consumer. */
    public static String laneOf(QuarantineRecord r) {
        String dependency = r.classification().dependency();
        return dependency == null || dependency.isBlank() ? CONSUMER_LANE_PREFIX + r.consumer() : dependency;
    }

    /** Replays per second in {@code lane}. */
    public double perSecond(String lane) {
        return byLane.getOrDefault(lane, perSecond);
    }

    /** The time between two slots of {@code lane}, to the millisecond (at least 1 ms). */
    public Duration spacing(String lane) {
        return Duration.ofMillis(Math.max(1, Math.round(1000 / perSecond(lane))));
    }

    /** This pace with {@code lane} at {@code perSecond}. */
    public ReplayPace with(String lane, double perSecond) {
        Map<String, Double> m = new HashMap<>(byLane);
        m.put(lane, perSecond);
        return new ReplayPace(this.perSecond, m, horizon);
    }
}
