package dev.redrive.checkout;

import java.time.Duration;

/**
 * Where confirmation emails go: a mail provider that takes an idempotency key (the way payment APIs do), so the same
 * key sent twice delivers one email. The fencing token travels along for providers that can reject a stale writer.
 */
public interface EmailOutbox {

    /** Sends {@code email}; returns where it went. Sending the same idempotency key again changes nothing. */
    String send(Email email);

    /**
     * One email.
     *
     * @param idempotencyKey the claim key
     * @param fencingToken   the token of the claim that sends it
     * @param to             the recipient (sensitive)
     * @param subject        the subject line
     * @param body           the text
     * @param timeLeft       how long sending may take: the time left before the effect's deadline, which every call to
     *                       the provider is bounded by (none starts after it)
     */
    record Email(String idempotencyKey, long fencingToken, String to, String subject, String body, Duration timeLeft) {}
}
