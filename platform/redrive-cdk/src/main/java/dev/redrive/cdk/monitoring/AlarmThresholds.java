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
 * @param evaluationPeriods           periods in breach before an age or depth alarm fires (default 3)
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
        int evaluationPeriods) {

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
            3);

    /** Checks the values can make alarms; a bad one is refused naming its setting. */
    public AlarmThresholds {
        positive("sourceOldestMessageAge", sourceOldestMessageAge);
        positive("deadLetterOldestMessageAge", deadLetterOldestMessageAge);
        positive("oldestUnresolvedQuarantine", oldestUnresolvedQuarantine);
        positive("breakerOpen", breakerOpen);
        wholeMinutes("period", period);
        wholeMinutes("replaySuccessWindow", replaySuccessWindow);
        atLeastOne("sourceVisibleMessages", sourceVisibleMessages);
        atLeastOne("deadLetterVisibleMessages", deadLetterVisibleMessages);
        atLeastOne("evaluationPeriods", evaluationPeriods);
        if (!(replaySuccessRate > 0 && replaySuccessRate <= 1)) {
            throw new IllegalArgumentException(
                    "alarm threshold replaySuccessRate must be in (0, 1], was " + replaySuccessRate);
        }
    }

    /** These thresholds with the source queues' age threshold {@code value}. */
    public AlarmThresholds withSourceOldestMessageAge(Duration value) {
        return new AlarmThresholds(
                value,
                sourceVisibleMessages,
                deadLetterOldestMessageAge,
                deadLetterVisibleMessages,
                oldestUnresolvedQuarantine,
                replaySuccessRate,
                replaySuccessWindow,
                breakerOpen,
                period,
                evaluationPeriods);
    }

    /** These thresholds with the source queues' depth threshold {@code value}. */
    public AlarmThresholds withSourceVisibleMessages(int value) {
        return new AlarmThresholds(
                sourceOldestMessageAge,
                value,
                deadLetterOldestMessageAge,
                deadLetterVisibleMessages,
                oldestUnresolvedQuarantine,
                replaySuccessRate,
                replaySuccessWindow,
                breakerOpen,
                period,
                evaluationPeriods);
    }

    /** These thresholds with the dead-letter queues' age threshold {@code value}. */
    public AlarmThresholds withDeadLetterOldestMessageAge(Duration value) {
        return new AlarmThresholds(
                sourceOldestMessageAge,
                sourceVisibleMessages,
                value,
                deadLetterVisibleMessages,
                oldestUnresolvedQuarantine,
                replaySuccessRate,
                replaySuccessWindow,
                breakerOpen,
                period,
                evaluationPeriods);
    }

    /** These thresholds with the dead-letter queues' depth threshold {@code value}. */
    public AlarmThresholds withDeadLetterVisibleMessages(int value) {
        return new AlarmThresholds(
                sourceOldestMessageAge,
                sourceVisibleMessages,
                deadLetterOldestMessageAge,
                value,
                oldestUnresolvedQuarantine,
                replaySuccessRate,
                replaySuccessWindow,
                breakerOpen,
                period,
                evaluationPeriods);
    }

    /** These thresholds with the oldest unresolved quarantine entry's threshold {@code value}. */
    public AlarmThresholds withOldestUnresolvedQuarantine(Duration value) {
        return new AlarmThresholds(
                sourceOldestMessageAge,
                sourceVisibleMessages,
                deadLetterOldestMessageAge,
                deadLetterVisibleMessages,
                value,
                replaySuccessRate,
                replaySuccessWindow,
                breakerOpen,
                period,
                evaluationPeriods);
    }

    /** These thresholds with the replay success rate {@code rate} computed over {@code window}. */
    public AlarmThresholds withReplaySuccessRate(double rate, Duration window) {
        return new AlarmThresholds(
                sourceOldestMessageAge,
                sourceVisibleMessages,
                deadLetterOldestMessageAge,
                deadLetterVisibleMessages,
                oldestUnresolvedQuarantine,
                rate,
                window,
                breakerOpen,
                period,
                evaluationPeriods);
    }

    /** These thresholds with the circuit breakers' open threshold {@code value}. */
    public AlarmThresholds withBreakerOpen(Duration value) {
        return new AlarmThresholds(
                sourceOldestMessageAge,
                sourceVisibleMessages,
                deadLetterOldestMessageAge,
                deadLetterVisibleMessages,
                oldestUnresolvedQuarantine,
                replaySuccessRate,
                replaySuccessWindow,
                value,
                period,
                evaluationPeriods);
    }

    /** These thresholds with the alarms' {@code period} and {@code evaluationPeriods}. */
    public AlarmThresholds withPeriod(Duration period, int evaluationPeriods) {
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
                evaluationPeriods);
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
