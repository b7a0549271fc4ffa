package dev.redrive.localrun.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChaosOptionsTest {

    @Test
    void flagsOverrideTheDefaultsAndOthersKeepThem() {
        ChaosOptions o = ChaosOptions.parse(
                7, List.of("--backlog", "50", "--producers", "3", "--outage", "PT90S", "--two-sweepers", "0.9"));
        ChaosOptions d = ChaosOptions.defaults(7);

        assertThat(o.backlog()).isEqualTo(50);
        assertThat(o.producers()).isEqualTo(3);
        assertThat(o.outage()).isEqualTo(Duration.ofSeconds(90));
        assertThat(o.plan().rate(FaultKind.TWO_SWEEPERS)).isEqualTo(0.9);
        assertThat(o.maxCopies()).isEqualTo(d.maxCopies());
        assertThat(o.plan().rate(FaultKind.LATENCY)).isEqualTo(d.plan().rate(FaultKind.LATENCY));
        assertThat(d.backlog()).isEqualTo(200);
    }

    @Test
    void eachAtLeastOnceTakesNoValueAndKeepsTheRatesAroundIt() {
        ChaosOptions o = ChaosOptions.parse(
                7, List.of("--latency", "0.2", "--each-at-least-once", "--kill-at", "claim-write=0.3"));
        assertThat(o.plan().eachAtLeastOnce()).isTrue();
        assertThat(o.plan().rate(FaultKind.LATENCY)).isEqualTo(0.2);
        assertThat(o.plan().killRate(Step.CLAIM_WRITE)).isEqualTo(0.3);
        assertThat(ChaosOptions.defaults(7).plan().eachAtLeastOnce()).isFalse();
    }

    @Test
    void aBadValueIsRefusedNamingItsFlag() {
        assertThatThrownBy(() -> ChaosOptions.parse(7, List.of("--backlog", "lots")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--backlog takes a whole number, not 'lots'");
        assertThatThrownBy(() -> ChaosOptions.parse(7, List.of("--backlog", "0")))
                .hasMessage("--copies, --producers and --backlog must be at least 1");
        assertThatThrownBy(() -> ChaosOptions.parse(7, List.of("--latency", "2")))
                .hasMessage("--latency is a chance from 0 to 1, not 2");
        assertThatThrownBy(() -> ChaosOptions.parse(7, List.of("--outage", "90s")))
                .hasMessage("--outage takes an ISO-8601 duration such as PT20S, not '90s'");
        assertThatThrownBy(() -> ChaosOptions.parse(7, List.of("--bogus", "1")))
                .hasMessage("unknown chaos option --bogus");
    }

    @Test
    void everyFlagParseAcceptsIsAChaosFlag() {
        for (String f : List.of(
                "--backlog",
                "--producers",
                "--outage",
                "--kill-at",
                "--two-sweepers",
                "--no-faults",
                "--each-at-least-once")) {
            assertThat(ChaosOptions.isChaosFlag(f)).as(f).isTrue();
        }
        assertThat(ChaosOptions.isChaosFlag("--orders")).isFalse();
    }

    @Test
    void theProducersCrashPointsTakeKillRatesAndTheProviderHangsAndCustomersGiveUpAtRatesOfTheirOwn() {
        ChaosOptions o = ChaosOptions.parse(
                7,
                List.of(
                        "--kill-at", "checkout-placed=0.2,relay-published=0.3,claim-write=0.1",
                        "--provider-hang", "0.05",
                        "--abandon", "0.4"));

        assertThat(o.plan().killRate(ProducerCrashPoint.CHECKOUT_PLACED)).isEqualTo(0.2);
        assertThat(o.plan().killRate(ProducerCrashPoint.RELAY_PUBLISHED)).isEqualTo(0.3);
        assertThat(o.plan().killRate(Step.CLAIM_WRITE)).isEqualTo(0.1);
        assertThat(o.plan().killRate(ProducerCrashPoint.CHECKOUT_RESERVED))
                .as("a point not named keeps its default")
                .isEqualTo(ChaosOptions.DEFAULT_KILL_RATES.get("checkout-reserved"));
        assertThat(o.plan().rate(FaultKind.PROVIDER_HANG)).isEqualTo(0.05);
        assertThat(o.abandonShare()).isEqualTo(0.4);
        assertThat(ChaosOptions.parse(7, List.of("--kill", "0.5"))
                        .plan()
                        .killRate(ProducerCrashPoint.CHECKOUT_RESERVED))
                .as("--kill sets every point, the producer's too")
                .isEqualTo(0.5);
    }

    @Test
    void anUnknownKillPointIsRefusedListingEveryPoint() {
        assertThatThrownBy(() -> ChaosOptions.parse(7, List.of("--kill-at", "checkout-paid=0.1")))
                .hasMessage("--kill-at: unknown step 'checkout-paid' (one of takes-event, claim-write, effect-call, "
                        + "effect-response, completed, returned, checkout-reserved, checkout-authorized, "
                        + "checkout-placed, relay-published, reconciliation-voided)");
        assertThat(ChaosOptions.isChaosFlag("--abandon")).isTrue();
        assertThat(ChaosOptions.isChaosFlag("--return")).isTrue();
        assertThat(ChaosOptions.isChaosFlag("--provider-hang")).isTrue();
    }
}
