package dev.redrive.infra.monitoring;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the checkout producer's alarms fire ({@link ProducerMonitoring}); the period and the evaluation periods are the
 * platform's ({@link dev.redrive.cdk.monitoring.AlarmThresholds}).
 *
 * @param oldestUnpublishedOutbox     the checkout's outbox: an event unpublished for longer than this (default 15 min:
 *                                    three of the sweep's republish ages)
 * @param relayIteratorAge            the outbox relay behind its stream by more than this (default 5 min)
 * @param paymentProviderUnavailable  checkouts answered 503 by an unanswered provider, at least this many in a period
 *                                    (default 5)
 */
public record ProducerAlarmThresholds(
        Duration oldestUnpublishedOutbox, Duration relayIteratorAge, int paymentProviderUnavailable) {

    /** The defaults. */
    public static final ProducerAlarmThresholds DEFAULT =
            new ProducerAlarmThresholds(Duration.ofMinutes(15), Duration.ofMinutes(5), 5);

    /** Checks the values can make alarms. */
    public ProducerAlarmThresholds {
        positive("oldestUnpublishedOutbox", oldestUnpublishedOutbox);
        positive("relayIteratorAge", relayIteratorAge);
        if (paymentProviderUnavailable < 1) {
            throw new IllegalArgumentException(
                    "paymentProviderUnavailable must be at least 1, was " + paymentProviderUnavailable);
        }
    }

    private static void positive(String setting, Duration value) {
        Objects.requireNonNull(value, setting);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(setting + " must be positive, was " + value);
        }
    }
}
