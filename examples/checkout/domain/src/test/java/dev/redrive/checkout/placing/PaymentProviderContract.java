package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.checkout.placing.InMemoryPaymentProvider.Unanswered;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link PaymentProvider}, for the in-memory fake and for {@link HttpPaymentProvider} against the
 * local simulator: a payment API's idempotency (the same key and request, the same authorization; another request
 * under the key, an error), declines, and calls left unanswered before or after the provider authorized.
 */
public abstract class PaymentProviderContract {

    static final Duration TIMEOUT = Duration.ofSeconds(2);

    protected abstract PaymentProvider provider();

    /** The next authorization goes unanswered, {@code when}. */
    protected abstract void unanswered(Unanswered when);

    /** How many authorizations the provider keeps under {@code key} (voided or not). */
    protected abstract long chargesUnder(String key);

    static PaymentProvider.Authorization request(String key, String token, long amount) {
        return new PaymentProvider.Authorization(key, "o-" + key, token, amount, "EUR");
    }

    @Test
    void theSameKeyAndRequestGetTheSameAuthorizationOnce() {
        String key = "k-" + UUID.randomUUID();

        PaymentProvider.Outcome first = provider().authorize(request(key, "tok_visa", 2999), TIMEOUT);
        PaymentProvider.Outcome again = provider().authorize(request(key, "tok_visa", 2999), TIMEOUT);

        assertThat(first).isInstanceOf(PaymentProvider.Authorized.class);
        assertThat(again).isEqualTo(first);
        assertThat(chargesUnder(key)).isEqualTo(1);
    }

    @Test
    void anotherRequestUnderAKeyIsRefused() {
        String key = "k-" + UUID.randomUUID();
        provider().authorize(request(key, "tok_visa", 2999), TIMEOUT);

        assertThatThrownBy(() -> provider().authorize(request(key, "tok_visa", 3999), TIMEOUT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("another request");
        assertThat(chargesUnder(key)).isEqualTo(1);
    }

    @Test
    void aDeclineChargesNothing() {
        String key = "k-" + UUID.randomUUID();

        assertThat(provider().authorize(request(key, "tok_decline_funds", 100), TIMEOUT))
                .isEqualTo(new PaymentProvider.Declined("card_declined"));
        assertThat(chargesUnder(key)).isZero();
    }

    @Test
    void anUnansweredCallIsUnavailableAndTheRetryFindsWhatTheProviderDid() {
        String before = "k-" + UUID.randomUUID();
        unanswered(Unanswered.BEFORE_AUTHORIZING);
        assertThat(provider().authorize(request(before, "tok_visa", 100), TIMEOUT))
                .isInstanceOf(PaymentProvider.Unavailable.class);
        assertThat(chargesUnder(before)).isZero();

        String after = "k-" + UUID.randomUUID();
        unanswered(Unanswered.AFTER_AUTHORIZING);
        assertThat(provider().authorize(request(after, "tok_visa", 100), TIMEOUT))
                .isInstanceOf(PaymentProvider.Unavailable.class);
        PaymentProvider.Outcome retried = provider().authorize(request(after, "tok_visa", 100), TIMEOUT);

        assertThat(retried).isInstanceOf(PaymentProvider.Authorized.class);
        assertThat(chargesUnder(after)).isEqualTo(1);
    }

    @Test
    void aVoidIsIdempotent() {
        String key = "k-" + UUID.randomUUID();
        provider().authorize(request(key, "tok_visa", 100), TIMEOUT);

        assertThat(provider().voidAuthorization(key, TIMEOUT)).isEqualTo(new PaymentProvider.Voided());
        assertThat(provider().voidAuthorization(key, TIMEOUT)).isEqualTo(new PaymentProvider.Voided());
        assertThat(provider().voidAuthorization("k-none-" + UUID.randomUUID(), TIMEOUT))
                .as("a key never authorized: nothing to void, not a failure")
                .isEqualTo(new PaymentProvider.NeverAuthorized());
    }
}
