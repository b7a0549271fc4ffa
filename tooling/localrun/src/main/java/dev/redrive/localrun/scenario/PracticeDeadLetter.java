package dev.redrive.localrun.scenario;

import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.checkout.RevenueAnalyticsConsumer;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.localrun.scenario.OrderTraffic.Order;
import java.util.List;

/**
 * One kind of dead letter the incident leaves for practice ({@code --practice}): which consumer, failure class, error
 * type, reason and dependency, and which payload version. The kinds repeat in a fixed order, so any P of them spreads
 * over all of them.
 */
record PracticeDeadLetter(
        boolean revenue, FailureClass failureClass, String errorType, String reason, String dependency, int version) {

    static final List<PracticeDeadLetter> KINDS = List.of(
            new PracticeDeadLetter(
                    false,
                    FailureClass.TRANSIENT,
                    "Timeout",
                    "the mail provider did not answer within 10s",
                    ConfirmationEmailConsumer.DEPENDENCY,
                    2),
            new PracticeDeadLetter(
                    false,
                    FailureClass.TRANSIENT,
                    "SlowDown",
                    "SlowDown (HTTP 503) from email-provider",
                    ConfirmationEmailConsumer.DEPENDENCY,
                    2),
            new PracticeDeadLetter(
                    true,
                    FailureClass.TRANSIENT,
                    "ProvisionedThroughputExceededException",
                    "the revenue store throttled the counter update",
                    RevenueAnalyticsConsumer.DEPENDENCY,
                    2),
            new PracticeDeadLetter(
                    false,
                    FailureClass.PERMANENT,
                    "InvalidRecipient",
                    "the order has no deliverable customer email address",
                    ConfirmationEmailConsumer.DEPENDENCY,
                    2),
            new PracticeDeadLetter(
                    false,
                    FailureClass.TRANSIENT,
                    "Timeout",
                    "the mail provider did not answer within 10s",
                    ConfirmationEmailConsumer.DEPENDENCY,
                    2),
            new PracticeDeadLetter(
                    true,
                    FailureClass.SCHEMA,
                    "OutdatedVersion",
                    "OrderPlaced v1 is an older version; this consumer reads v2",
                    null,
                    1),
            new PracticeDeadLetter(
                    false,
                    FailureClass.POISON,
                    "NoFailureRecorded",
                    "moved to the DLQ by the redrive policy after 4 receives, and no attempt recorded a claim or a "
                            + "failure: the consumer crashed or timed out before it could",
                    null,
                    2));

    /** The kind of the {@code i}-th dead letter left for practice. */
    static PracticeDeadLetter ofIndex(int i) {
        return KINDS.get(i % KINDS.size());
    }

    /** The payload of this kind for {@code eventId}: an order of this kind's payload version. */
    String body(String eventId, int i) {
        return new Order(eventId, "o-practice-" + (i + 1), 1000 + 10L * (i % 50), "EUR", version).body();
    }
}
