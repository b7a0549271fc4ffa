package dev.redrive.infra.monitoring;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the alarms fire. Age alarms matter more than depth: a deep queue that drains is fine, an old message is not.
 *
 * @param sourceOldestMessageAge      source queue: oldest message older than this (default 15 min)
 * @param sourceVisibleMessages       source queue: at least this many messages waiting (default 1000)
 * @param deadLetterOldestMessageAge  DLQ: oldest dead letter older than this, i.e. the sweeper is not draining it
 *                                    (default 1 h)
 * @param deadLetterVisibleMessages   DLQ: at least this many dead letters at once, a flood (default 100); a single
 *                                    arrival has its own alarm
 * @param oldestUnresolvedQuarantine  quarantine: an entry unresolved for longer than this (default 3 days)
 * @param replaySuccessRate           replays: success rate below this fraction (default 0.9)
 * @param replaySuccessWindow         the window the success rate is computed over, from the sweeper's per-run counts
 *                                    (default 1 h: a failed replay returns after the consumer's retry window)
 * @param breakerOpen                 a dependency's circuit breaker open (refusing calls) for longer than this since it
 *                                    first opened (default 15 min)
 * @param oldestUnpublishedOutbox     the checkout's outbox: an event unpublished for longer than this (default 15 min:
 *                                    three of the sweep's republish ages)
 * @param relayIteratorAge            the outbox relay behind its stream by more than this (default 5 min)
 * @param paymentProviderUnavailable  checkouts answered 503 by an unanswered provider, at least this many in a period
 *                                    (default 5)
 * @param period                      the period every alarm evaluates (default 5 min)
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
        Duration oldestUnpublishedOutbox,
        Duration relayIteratorAge,
        int paymentProviderUnavailable,
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
            Duration.ofMinutes(15),
            Duration.ofMinutes(5),
            5,
            Duration.ofMinutes(5),
            3);

    /** Checks the values can make alarms. */
    public AlarmThresholds {
        Objects.requireNonNull(sourceOldestMessageAge, "sourceOldestMessageAge");
        Objects.requireNonNull(deadLetterOldestMessageAge, "deadLetterOldestMessageAge");
        Objects.requireNonNull(oldestUnresolvedQuarantine, "oldestUnresolvedQuarantine");
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(replaySuccessWindow, "replaySuccessWindow");
        Objects.requireNonNull(breakerOpen, "breakerOpen");
        Objects.requireNonNull(oldestUnpublishedOutbox, "oldestUnpublishedOutbox");
        Objects.requireNonNull(relayIteratorAge, "relayIteratorAge");
        if (sourceVisibleMessages < 1
                || deadLetterVisibleMessages < 1
                || evaluationPeriods < 1
                || paymentProviderUnavailable < 1) {
            throw new IllegalArgumentException("depth thresholds and evaluation periods must be at least 1");
        }
        if (!(replaySuccessRate > 0 && replaySuccessRate <= 1)) {
            throw new IllegalArgumentException(
                    "replay success rate threshold must be in (0, 1], was " + replaySuccessRate);
        }
        if (period.toSeconds() < 60 || period.toSeconds() % 60 != 0) {
            throw new IllegalArgumentException("alarm period must be whole minutes, was " + period);
        }
        if (replaySuccessWindow.toSeconds() < 60 || replaySuccessWindow.toSeconds() % 60 != 0) {
            throw new IllegalArgumentException(
                    "replay success window must be whole minutes, was " + replaySuccessWindow);
        }
    }
}
