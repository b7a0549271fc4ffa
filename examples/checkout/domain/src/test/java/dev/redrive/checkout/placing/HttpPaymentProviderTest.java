package dev.redrive.checkout.placing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.checkout.placing.InMemoryPaymentProvider.Unanswered;
import dev.redrive.localstack.PaymentProviderSimulator;
import dev.redrive.localstack.PaymentProviderSimulator.Fault;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The HTTP adapter against the local simulator; "unanswered" is a hang past the call's timeout. */
class HttpPaymentProviderTest extends PaymentProviderContract {

    static final PaymentProviderSimulator SIMULATOR = PaymentProviderSimulator.start();
    final HttpPaymentProvider provider = new HttpPaymentProvider(SIMULATOR.url(), Duration.ofSeconds(1));

    @AfterAll
    static void stop() {
        SIMULATOR.close();
    }

    @Override
    protected PaymentProvider provider() {
        return provider;
    }

    @Override
    protected void unanswered(Unanswered when) {
        SIMULATOR.fault(
                when == Unanswered.BEFORE_AUTHORIZING ? Fault.HANG_BEFORE_AUTHORIZING : Fault.HANG_AFTER_AUTHORIZING,
                1,
                TIMEOUT.plusSeconds(1));
    }

    @Override
    protected long chargesUnder(String key) {
        return SIMULATOR.charges().stream().filter(c -> c.key().equals(key)).count();
    }

    /**
     * Issue 36: a provider answers a void of a key it never authorized "no such authorization" (404): nothing to void.
     * Read as "unreachable", the reconciliation gave the attempt back every run and never released its stock.
     */
    @Test
    void aVoidOfAKeyNeverAuthorizedIsNothingToVoidNotUnreachable() {
        assertThat(provider.voidAuthorization("k-never-authorized", TIMEOUT))
                .as("404 no_such_authorization: there is nothing to void")
                .isEqualTo(new PaymentProvider.NeverAuthorized());
    }

    @Test
    void aHangIsCutAtTheTimeoutGivenNotLater() {
        SIMULATOR.fault(Fault.HANG_BEFORE_AUTHORIZING, 1, Duration.ofSeconds(5));
        long started = System.nanoTime();

        PaymentProvider.Outcome outcome =
                provider.authorize(request("k-hang", "tok_visa", 100), Duration.ofMillis(300));

        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(outcome)
                .isEqualTo(new PaymentProvider.Unavailable("the payment provider did not answer within PT0.3S"));
        assertThat(took).as("cut at its timeout").isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void aFailureAndARefusedConnectionAreUnavailable() throws Exception {
        SIMULATOR.fault(Fault.FAIL, 1, Duration.ZERO);
        assertThat(provider.authorize(request("k-fail", "tok_visa", 100), TIMEOUT))
                .isEqualTo(new PaymentProvider.Unavailable("the payment provider answered 503"));

        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        HttpPaymentProvider nowhere =
                new HttpPaymentProvider(URI.create("http://127.0.0.1:" + closed + "/"), Duration.ofMillis(500));
        assertThat(nowhere.authorize(request("k-nowhere", "tok_visa", 100), TIMEOUT))
                .isInstanceOf(PaymentProvider.Unavailable.class);
    }

    @Test
    void aFaultPolicyChoosesPerCallByKeyAndTheRetryFindsTheSameAuthorization() {
        SIMULATOR.faultPolicy(
                key -> key.equals("k-policy-hang") ? Optional.of(Fault.HANG_AFTER_AUTHORIZING) : Optional.empty(),
                Duration.ofSeconds(2));
        try {
            assertThat(provider.authorize(request("k-policy-other", "tok_visa", 100), TIMEOUT))
                    .as("a key the policy leaves alone")
                    .isInstanceOf(PaymentProvider.Authorized.class);
            assertThat(provider.authorize(request("k-policy-hang", "tok_visa", 100), Duration.ofMillis(300)))
                    .as("the hang outlasts the call's timeout")
                    .isInstanceOf(PaymentProvider.Unavailable.class);
            SIMULATOR.faultPolicy(key -> Optional.empty(), Duration.ofSeconds(2));
            assertThat(provider.authorize(request("k-policy-hang", "tok_visa", 100), TIMEOUT))
                    .as("authorized while it hung: the retry under the key finds that authorization")
                    .isInstanceOf(PaymentProvider.Authorized.class);
            assertThat(chargesUnder("k-policy-hang")).isEqualTo(1);
        } finally {
            SIMULATOR.faultPolicy(key -> Optional.empty(), Duration.ofSeconds(30));
        }
    }
}
