package dev.redrive.core.replay;

import dev.redrive.core.names.RedriveNames.ReplayPaceVariables;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * How fast replays may reach what they call, automatic or by a person. Replays are paced per <em>lane</em>: the
 * dependency their failure names ({@code mail-provider}), or, for a failure that names none, their consumer ({@code
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

    /**
     * A pace from its settings as the functions, the CLI and the IaC write them: {@code laneRates} is {@code
     * lane=perSecond} pairs separated by commas ({@code mail-provider=5,consumer:revenue=20}), or blank.
     *
     * @throws IllegalArgumentException naming the pair that is not {@code lane=perSecond}, or the rate out of bounds
     */
    public static ReplayPace of(double perSecond, String laneRates, Duration horizon) {
        return new ReplayPace(perSecond, parseLaneRates(laneRates), horizon);
    }

    /**
     * The pace the variables of {@link ReplayPaceVariables} set, each absent one at its {@link #DEFAULT} (the CLI and
     * the local run read the sweeper's pace this way).
     *
     * @throws IllegalArgumentException naming the variable whose value is refused
     */
    public static ReplayPace fromVariables(Function<String, Optional<String>> variable) {
        String rate = variable.apply(ReplayPaceVariables.RATE_PER_SECOND)
                .filter(v -> !v.isBlank())
                .orElse(Double.toString(DEFAULT.perSecond()));
        String horizon = variable.apply(ReplayPaceVariables.HORIZON)
                .filter(v -> !v.isBlank())
                .orElse(DEFAULT.horizon().toString());
        String lanes = variable.apply(ReplayPaceVariables.LANE_RATES).orElse("");
        try {
            return of(Double.parseDouble(rate.strip()), lanes, Duration.parse(horizon.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    ReplayPaceVariables.RATE_PER_SECOND + "=" + rate + " is not a number of replays per second");
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    ReplayPaceVariables.HORIZON + "=" + horizon + " is not an ISO-8601 duration (PT15M)");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (" + ReplayPaceVariables.RATE_PER_SECOND + ", "
                    + ReplayPaceVariables.LANE_RATES + ", " + ReplayPaceVariables.HORIZON + ")");
        }
    }

    /** {@code lane=perSecond,...} (blank: none), as {@link #of} reads it. */
    public static Map<String, Double> parseLaneRates(String laneRates) {
        Map<String, Double> rates = new LinkedHashMap<>();
        if (laneRates == null || laneRates.isBlank()) {
            return rates;
        }
        for (String pair : laneRates.split(",")) {
            int eq = pair.lastIndexOf('=');
            String lane = eq < 0 ? "" : pair.substring(0, eq).strip();
            String rate = eq < 0 ? "" : pair.substring(eq + 1).strip();
            try {
                if (lane.isEmpty() || rate.isEmpty()) {
                    throw new NumberFormatException();
                }
                if (rates.put(lane, Double.parseDouble(rate)) != null) {
                    throw new IllegalArgumentException("the lane rates name " + lane + " twice");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("the lane rates must be lane=perSecond pairs separated by commas: '"
                        + pair.strip() + "' is not one");
            }
        }
        return rates;
    }

    /** The lane rates as {@link #parseLaneRates} reads them. */
    public String laneRates() {
        StringBuilder b = new StringBuilder();
        new TreeMap<>(byLane).forEach((lane, rate) -> {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(lane).append('=').append(rate);
        });
        return b.toString();
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
