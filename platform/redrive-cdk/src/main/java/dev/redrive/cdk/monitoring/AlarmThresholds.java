package dev.redrive.cdk.monitoring;

import java.time.Duration;

/**
 * Where {@link Monitoring}'s alarms fire. Age alarms matter more than depth: a deep queue that drains is fine, an old
 * message is not. Start from {@link #DEFAULT} and change what differs with the {@code with...} methods; every value is
 * checked, and a bad one is refused naming the setting.
 *
 * @param sourceOldestMessageAge      source queue: oldest message older than this (default 15 min)
 * @param sourceVisibleMessages       source queue: at least this many messages waiting (default 1000)
 * @param deadLetterOldestMessageAge  DLQ: oldest dead letter older than this, i.e. the sweeper is not draining it
 *                                    (default 1 h)
 * @param deadLetterVisibleMessages   DLQ: at least this many dead letters at once, a flood (default 100); a single
 *                                    arrival has its own alarm
 * @param oldestUnresolvedQuarantine  quarantine: an entry unresolved for longer than this (default 3 days)
 * @param replaySuccessRate           replays: success rate below this fraction, in (0, 1] (default 0.9)
 * @param replaySuccessWindow         the window the success rate is computed over, from the sweeper's per-run counts,
 *                                    whole minutes (default 1 h: a failed replay returns after the consumer's retry
 *                                    window)
 * @param breakerOpen                 a dependency's circuit breaker open (refusing calls) for longer than this since it
 *                                    first opened (default 15 min)
 * @param period                      the period every alarm evaluates, whole minutes (default 5 min)
 * @param evaluationPeriods           periods in breach before an age, depth or dead-letter arrival alarm fires
 *                                    (default 3)
 * @param deadLetterArrivalBand       DLQ arrivals: the width of the anomaly detection band, in standard deviations of
 *                                    the learned baseline, that arrivals must exceed (default 2; in (0, 100])
 * @param functionErrors              a function's errors in one period that alarm (default 1)
 * @param functionThrottles           a function's throttled invocations in one period that alarm (default 1)
 * @param tableThrottles              a table's or index's read plus write throttle events in one period that alarm
 *                                    (default 1)
 * @param accountConcurrency          the account's claimed Lambda concurrency in the region that alarms (default 900:
 *                                    90 % of Lambda's default quota of 1,000; set it to 90 % of yours)
 * @param sweeperHeartbeat            no sweeper run reported for this long alarms, whole minutes, at most a day
 *                                    (default 30 min: six runs at the default rate)
 */
public record AlarmThresholds(
        Duration sourceOldestMessageAge,
        int sourceVisibleMessages,
        Duration deadLetterOldestMessageAge,
        int deadLetterVisibleMessages,
        Duration oldestUnresolvedQuarantine,
        double replaySuccessRate,
        Duration replaySuccessWindow,
        Duration breakerOpen,
        Duration period,
        int evaluationPeriods,
        double deadLetterArrivalBand,
        int functionErrors,
        int functionThrottles,
        int tableThrottles,
        int accountConcurrency,
        Duration sweeperHeartbeat) {

    /** The defaults. */
    public static final AlarmThresholds DEFAULT = new AlarmThresholds(
            Duration.ofMinutes(15),
            1000,
            Duration.ofHours(1),
            100,
            Duration.ofDays(3),
            0.9,
            Duration.ofHours(1),
            Duration.ofMinutes(15),
            Duration.ofMinutes(5),
            3,
            2,
            1,
            1,
            1,
            900,
            Duration.ofMinutes(30));

    /** Checks the values can make alarms; a bad one is refused naming its setting. */
    public AlarmThresholds {
        positive("sourceOldestMessageAge", sourceOldestMessageAge);
        positive("deadLetterOldestMessageAge", deadLetterOldestMessageAge);
        positive("oldestUnresolvedQuarantine", oldestUnresolvedQuarantine);
        positive("breakerOpen", breakerOpen);
        wholeMinutes("period", period);
        wholeMinutes("replaySuccessWindow", replaySuccessWindow);
        wholeMinutes("sweeperHeartbeat", sweeperHeartbeat);
        // CloudWatch alarm periods of a day at most (and the static DEFAULT is made before any other static field).
        if (sweeperHeartbeat.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException(
                    "alarm threshold sweeperHeartbeat must be at most a day (an alarm period's limit), was "
                            + sweeperHeartbeat);
        }
        atLeastOne("sourceVisibleMessages", sourceVisibleMessages);
        atLeastOne("deadLetterVisibleMessages", deadLetterVisibleMessages);
        atLeastOne("evaluationPeriods", evaluationPeriods);
        atLeastOne("functionErrors", functionErrors);
        atLeastOne("functionThrottles", functionThrottles);
        atLeastOne("tableThrottles", tableThrottles);
        atLeastOne("accountConcurrency", accountConcurrency);
        if (!(replaySuccessRate > 0 && replaySuccessRate <= 1)) {
            throw new IllegalArgumentException(
                    "alarm threshold replaySuccessRate must be in (0, 1], was " + replaySuccessRate);
        }
        if (!(deadLetterArrivalBand > 0 && deadLetterArrivalBand <= 100)) {
            throw new IllegalArgumentException("alarm threshold deadLetterArrivalBand must be in (0, 100] standard "
                    + "deviations, was " + deadLetterArrivalBand);
        }
    }

    /**
     * Refuses a heartbeat window shorter than two runs of a sweeper scheduled every {@code sweepInterval}: one late or
     * failed run must not page.
     *
     * @throws IllegalArgumentException naming {@code sweeperHeartbeat} and the interval
     */
    public void requireHeartbeatCovers(Duration sweepInterval) {
        if (sweeperHeartbeat.compareTo(sweepInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("alarm threshold sweeperHeartbeat " + sweeperHeartbeat
                    + " must be at least twice the sweep interval " + sweepInterval
                    + ": one late run must not page");
        }
    }

    /** These thresholds with the source queues' age threshold {@code value}. */
    public AlarmThresholds withSourceOldestMessageAge(Duration value) {
        return with(m -> m.sourceOldestMessageAge = value);
    }

    /** These thresholds with the source queues' depth threshold {@code value}. */
    public AlarmThresholds withSourceVisibleMessages(int value) {
        return with(m -> m.sourceVisibleMessages = value);
    }

    /** These thresholds with the dead-letter queues' age threshold {@code value}. */
    public AlarmThresholds withDeadLetterOldestMessageAge(Duration value) {
        return with(m -> m.deadLetterOldestMessageAge = value);
    }

    /** These thresholds with the dead-letter queues' depth threshold {@code value}. */
    public AlarmThresholds withDeadLetterVisibleMessages(int value) {
        return with(m -> m.deadLetterVisibleMessages = value);
    }

    /** These thresholds with the oldest unresolved quarantine entry's threshold {@code value}. */
    public AlarmThresholds withOldestUnresolvedQuarantine(Duration value) {
        return with(m -> m.oldestUnresolvedQuarantine = value);
    }

    /** These thresholds with the replay success rate {@code rate} computed over {@code window}. */
    public AlarmThresholds withReplaySuccessRate(double rate, Duration window) {
        return with(m -> {
            m.replaySuccessRate = rate;
            m.replaySuccessWindow = window;
        });
    }

    /** These thresholds with the circuit breakers' open threshold {@code value}. */
    public AlarmThresholds withBreakerOpen(Duration value) {
        return with(m -> m.breakerOpen = value);
    }

    /** These thresholds with the alarms' {@code period} and {@code evaluationPeriods}. */
    public AlarmThresholds withPeriod(Duration period, int evaluationPeriods) {
        return with(m -> {
            m.period = period;
            m.evaluationPeriods = evaluationPeriods;
        });
    }

    /** These thresholds with the dead-letter arrivals' anomaly band {@code standardDeviations} wide. */
    public AlarmThresholds withDeadLetterArrivalBand(double standardDeviations) {
        return with(m -> m.deadLetterArrivalBand = standardDeviations);
    }

    /** These thresholds with a function's errors ({@code errors}) and throttles ({@code throttles}) per period. */
    public AlarmThresholds withFunctionAlarms(int errors, int throttles) {
        return with(m -> {
            m.functionErrors = errors;
            m.functionThrottles = throttles;
        });
    }

    /** These thresholds with a table's or index's throttle events per period {@code value}. */
    public AlarmThresholds withTableThrottles(int value) {
        return with(m -> m.tableThrottles = value);
    }

    /** These thresholds with the account's claimed concurrency {@code value}. */
    public AlarmThresholds withAccountConcurrency(int value) {
        return with(m -> m.accountConcurrency = value);
    }

    /** These thresholds with the sweeper's heartbeat window {@code value}. */
    public AlarmThresholds withSweeperHeartbeat(Duration value) {
        return with(m -> m.sweeperHeartbeat = value);
    }

    /** A copy with {@code change} applied, checked as the constructor checks. */
    private AlarmThresholds with(java.util.function.Consumer<Values> change) {
        Values v = new Values(this);
        change.accept(v);
        return v.build();
    }

    /** The values while one {@code with...} changes some of them. */
    private static final class Values {
        Duration sourceOldestMessageAge;
        int sourceVisibleMessages;
        Duration deadLetterOldestMessageAge;
        int deadLetterVisibleMessages;
        Duration oldestUnresolvedQuarantine;
        double replaySuccessRate;
        Duration replaySuccessWindow;
        Duration breakerOpen;
        Duration period;
        int evaluationPeriods;
        double deadLetterArrivalBand;
        int functionErrors;
        int functionThrottles;
        int tableThrottles;
        int accountConcurrency;
        Duration sweeperHeartbeat;

        Values(AlarmThresholds t) {
            sourceOldestMessageAge = t.sourceOldestMessageAge;
            sourceVisibleMessages = t.sourceVisibleMessages;
            deadLetterOldestMessageAge = t.deadLetterOldestMessageAge;
            deadLetterVisibleMessages = t.deadLetterVisibleMessages;
            oldestUnresolvedQuarantine = t.oldestUnresolvedQuarantine;
            replaySuccessRate = t.replaySuccessRate;
            replaySuccessWindow = t.replaySuccessWindow;
            breakerOpen = t.breakerOpen;
            period = t.period;
            evaluationPeriods = t.evaluationPeriods;
            deadLetterArrivalBand = t.deadLetterArrivalBand;
            functionErrors = t.functionErrors;
            functionThrottles = t.functionThrottles;
            tableThrottles = t.tableThrottles;
            accountConcurrency = t.accountConcurrency;
            sweeperHeartbeat = t.sweeperHeartbeat;
        }

        AlarmThresholds build() {
            return new AlarmThresholds(
                    sourceOldestMessageAge,
                    sourceVisibleMessages,
                    deadLetterOldestMessageAge,
                    deadLetterVisibleMessages,
                    oldestUnresolvedQuarantine,
                    replaySuccessRate,
                    replaySuccessWindow,
                    breakerOpen,
                    period,
                    evaluationPeriods,
                    deadLetterArrivalBand,
                    functionErrors,
                    functionThrottles,
                    tableThrottles,
                    accountConcurrency,
                    sweeperHeartbeat);
        }
    }

    private static void positive(String setting, Duration value) {
        if (value == null) {
            throw new IllegalArgumentException("alarm threshold " + setting + " is missing");
        }
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("alarm threshold " + setting + " must be positive, was " + value);
        }
    }

    private static void wholeMinutes(String setting, Duration value) {
        positive(setting, value);
        if (value.toSeconds() < 60 || value.toSeconds() % 60 != 0 || value.toNanosPart() != 0) {
            throw new IllegalArgumentException(
                    "alarm threshold " + setting + " must be whole minutes (CloudWatch periods are), was " + value);
        }
    }

    private static void atLeastOne(String setting, int value) {
        if (value < 1) {
            throw new IllegalArgumentException("alarm threshold " + setting + " must be at least 1, was " + value);
        }
    }
}
