package dev.redrive.localrun.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The incident scenario's wait for its outage to dead-letter, read from the stack's settings and from nothing else. */
class DeadLetteringBudgetTest {

    private static Map<String, String> consumer() {
        Map<String, String> env = new HashMap<>();
        env.put("REDRIVE_BACKOFF_BASE", "PT1S");
        env.put("REDRIVE_BACKOFF_MAX_DELAY", "PT4S");
        env.put("REDRIVE_BACKOFF_MULTIPLIER", "2.0");
        env.put("REDRIVE_BATCH_MAX_RECEIVE_COUNT", "4");
        return env;
    }

    @Test
    void withoutABreakerItIsTwiceTheBackoffCapsPlusTheDeliveriesWork() {
        // caps 1 + 2 + 4 + 4 = 11 s, twice that 22 s; 10 messages x 4 receives x 250 ms over 2 sandboxes = 5 s
        assertThat(ScenarioSupport.deadLetteringBudget("email", consumer(), 10, 2))
                .isEqualTo(ScenarioSupport.PHASE_TIMEOUT.plusSeconds(22 + 5));
    }

    @Test
    void withABreakerEachReceiveMayWaitItsCappedPeriodAndTheTemplatesProbeLease() {
        Map<String, String> env = consumer();
        env.put("REDRIVE_BREAKERS_TABLE", "control");
        env.put("REDRIVE_BREAKERS_EMAIL_PROVIDER_MAX_OPEN_PERIOD", "PT20S");
        env.put("REDRIVE_BREAKERS_EMAIL_PROVIDER_PROBE_LEASE", "PT7S");

        // 4 receives x (20 s + 7 s) = 108 s, twice that 216 s; plus 5 s of work
        assertThat(ScenarioSupport.deadLetteringBudget("email", env, 10, 2))
                .isEqualTo(ScenarioSupport.PHASE_TIMEOUT.plusSeconds(216 + 5));
    }

    @Test
    void aSettingTheTemplateDoesNotGiveIsRefusedNotReplacedByADefault() {
        Map<String, String> noBase = consumer();
        noBase.remove("REDRIVE_BACKOFF_BASE");
        assertThatThrownBy(() -> ScenarioSupport.deadLetteringBudget("email", noBase, 10, 2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("email is not told REDRIVE_BACKOFF_BASE by the template");

        Map<String, String> noLease = consumer();
        noLease.put("REDRIVE_BREAKERS_TABLE", "control");
        noLease.put("REDRIVE_BREAKERS_EMAIL_PROVIDER_MAX_OPEN_PERIOD", "PT20S");
        assertThatThrownBy(() -> ScenarioSupport.deadLetteringBudget("email", noLease, 10, 2))
                .hasMessage("email is not told REDRIVE_BREAKERS_EMAIL_PROVIDER_PROBE_LEASE by the template");

        Map<String, String> noCap = consumer();
        noCap.put("REDRIVE_BREAKERS_TABLE", "control");
        assertThatThrownBy(() -> ScenarioSupport.deadLetteringBudget("email", noCap, 10, 2))
                .hasMessageContaining("sets no REDRIVE_BREAKERS_<DEPENDENCY>_MAX_OPEN_PERIOD");
    }

    @Test
    void theLongestBreakerOfTheFunctionSetsTheWait() {
        Map<String, String> env = consumer();
        env.put("REDRIVE_BREAKERS_TABLE", "control");
        env.put("REDRIVE_BREAKERS_EMAIL_PROVIDER_MAX_OPEN_PERIOD", "PT20S");
        env.put("REDRIVE_BREAKERS_EMAIL_PROVIDER_PROBE_LEASE", "PT7S");
        env.put("REDRIVE_BREAKERS_PAYMENTS_MAX_OPEN_PERIOD", "PT1M");
        env.put("REDRIVE_BREAKERS_PAYMENTS_PROBE_LEASE", "PT30S");

        assertThat(ScenarioSupport.deadLetteringBudget("email", env, 0, 2))
                .isEqualTo(ScenarioSupport.PHASE_TIMEOUT.plus(Duration.ofSeconds(2 * 4 * 90)));
    }
}
