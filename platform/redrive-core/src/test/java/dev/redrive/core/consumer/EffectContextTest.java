package dev.redrive.core.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureClassifier;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class EffectContextTest {

    private static final Instant NOW = Instant.parse("2026-12-06T03:00:00Z");

    private static EffectContext deadlineIn(Duration left) {
        return new EffectContext(
                new IdempotencyKey("receipts", "o-1"), 7, 1, "m-1", NOW.plus(left), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void aCallGetsTheTimeLeftAsItsTimeout() {
        assertThat(deadlineIn(Duration.ofSeconds(12)).callTimeout("the receipt", "webhook"))
                .isEqualTo(Duration.ofSeconds(12));
    }

    @Test
    void noTimeLeftIsADeadlinePassedOfTheDependencyNotAZeroTimeout() {
        for (Duration left : new Duration[] {Duration.ZERO, Duration.ofSeconds(-5)}) {
            assertThatThrownBy(() -> deadlineIn(left).callTimeout("the receipt", "webhook"))
                    .isInstanceOfSatisfying(EffectDeadlinePassed.class, e -> {
                        assertThat(FailureClassifier.defaults().classify(e).failureClass())
                                .as("retried, not dead-lettered as a bug")
                                .isEqualTo(FailureClass.TRANSIENT);
                        assertThat(e.dependency()).isEqualTo("webhook");
                    })
                    .hasMessageContaining("the receipt not started");
        }
    }
}
