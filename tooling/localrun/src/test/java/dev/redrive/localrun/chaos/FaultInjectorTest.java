package dev.redrive.localrun.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FaultInjectorTest {

    private static FaultPlan plan(long seed, double rate) {
        return new FaultPlan(seed, Map.of(FaultKind.LATENCY, rate), Map.of(), Duration.ofMillis(100));
    }

    @Test
    void aDecisionDependsOnTheSeedTheStepTheIdentityAndItsOccurrenceNotOnWhoAsksFirst() {
        Map<String, List<Boolean>> forwards = decisions(42, false);
        Map<String, List<Boolean>> backwards = decisions(42, true);
        assertThat(backwards).isEqualTo(forwards);
        assertThat(forwards.values()).anyMatch(d -> d.get(0)).anyMatch(d -> !d.get(0));
        assertThat(decisions(43, false)).isNotEqualTo(forwards);
    }

    /** Two occurrences of each of 200 keys, asked in key order or the other way round. */
    private static Map<String, List<Boolean>> decisions(long seed, boolean reversed) {
        FaultInjector f = new FaultInjector(plan(seed, 0.3));
        f.enabled(true);
        Map<String, List<Boolean>> byKey = new java.util.TreeMap<>();
        for (int round = 0; round < 2; round++) {
            for (int n = 0; n < 200; n++) {
                String key = "key-" + (reversed ? 199 - n : n);
                byKey.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(f.draw("claim-write", key).strikes(FaultKind.LATENCY));
            }
        }
        return byKey;
    }

    @Test
    void faultsStrikeAtTheirRateAndAreCountedByKindAndStep() {
        FaultInjector f = new FaultInjector(plan(7, 0.1));
        f.enabled(true);
        int hits = 0;
        for (int i = 0; i < 20_000; i++) {
            if (f.draw(i % 2 == 0 ? "claim-write" : "completion", "k" + i).strikes(FaultKind.LATENCY)) {
                hits++;
            }
        }
        assertThat(hits / 20_000.0).isCloseTo(0.1, within(0.01));
        assertThat(f.total(FaultKind.LATENCY)).isEqualTo(hits);
        assertThat(f.counts().get(FaultKind.LATENCY)).containsOnlyKeys("claim-write", "completion");
        assertThat(f.injections()).hasSize(hits);
        assertThat(f.total(FaultKind.SANDBOX_KILL)).isZero();
    }

    @Test
    void nothingStrikesWhileDisabledOrAtRateZero() {
        FaultInjector f = new FaultInjector(plan(7, 1.0));
        assertThat(f.draw("s", "k").strikes(FaultKind.LATENCY)).as("disabled").isFalse();
        f.enabled(true);
        assertThat(f.draw("s", "k").strikes(FaultKind.LATENCY)).isTrue();
        assertThat(f.draw("s", "k").strikes(FaultKind.DYNAMODB_THROTTLE))
                .as("rate 0")
                .isFalse();
        assertThat(f.total(FaultKind.LATENCY)).isEqualTo(1);
    }

    @Test
    void eachAtLeastOnceStrikesEveryPlannedKindAndKillPointAtItsFirstOpportunityThenByItsRate() {
        FaultPlan p = FaultPlan.none(3)
                .with(FaultKind.LATENCY, 1e-9)
                .with(FaultKind.SQS_INTERNAL_ERROR, 1e-9)
                .withKill(Step.CLAIM_WRITE, 1e-9)
                .withKill(ProducerCrashPoint.RELAY_PUBLISHED, 1e-9)
                .withEachAtLeastOnce();
        assertThat(p.planned())
                .containsExactlyInAnyOrder("latency", "sqs-500", "kill at claim-write", "kill at relay-published");
        FaultInjector f = new FaultInjector(p);
        assertThat(f.draw("claim-write", "k0").strikes(FaultKind.LATENCY))
                .as("disabled: no strike, none used up")
                .isFalse();
        f.enabled(true);
        assertThat(f.draw("ledger-read", "k1").strikes(FaultKind.DYNAMODB_THROTTLE))
                .as("rate 0: never, not even once")
                .isFalse();
        assertThat(f.draw("claim-write", "k1").strikes(FaultKind.LATENCY)).isTrue();
        assertThat(f.draw("completion", "k2").strikes(FaultKind.LATENCY))
                .as("a kind strikes once whatever the step, then by its rate")
                .isFalse();
        assertThat(f.draw(Step.CLAIM_WRITE.id(), "k1").strikes(FaultKind.SANDBOX_KILL, p.killRate(Step.CLAIM_WRITE)))
                .isTrue();
        assertThat(f.draw(Step.CLAIM_WRITE.id(), "k2").strikes(FaultKind.SANDBOX_KILL, p.killRate(Step.CLAIM_WRITE)))
                .isFalse();
        assertThat(f.draw(ProducerCrashPoint.RELAY_PUBLISHED.id(), "order#1")
                        .wouldStrike(FaultKind.SANDBOX_KILL, p.killRate(ProducerCrashPoint.RELAY_PUBLISHED)))
                .as("each kill point once, apart from the others")
                .isTrue();
        assertThat(f.notStruckYet()).containsExactly("sqs-500");
        assertThat(f.draw("event-source:ReceiveMessage", "q").strikes(FaultKind.SQS_INTERNAL_ERROR))
                .isTrue();
        assertThat(f.notStruckYet()).isEmpty();
        assertThat(new FaultInjector(plan(7, 1e-9)).notStruckYet())
                .as("a plan that does not ask for it")
                .isEmpty();
    }

    @Test
    void killRatesArePerStepWithTheKindsRateAsDefault() {
        FaultPlan p = FaultPlan.none(1).with(FaultKind.SANDBOX_KILL, 0.2).withKill(Step.RETURNED, 0.5);
        assertThat(p.killRate(Step.CLAIM_WRITE)).isEqualTo(0.2);
        assertThat(p.killRate(Step.RETURNED)).isEqualTo(0.5);
    }
}
