package dev.redrive.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.Context;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the handler makes of the invocation's remaining time, which sizes leases and effect deadlines. */
class InvocationTimeTest {

    @Test
    void aDeadlineThatHasPassedLeavesNoTimeNotAMinute() {
        // A sandbox thawed after its invocation's deadline: Lambda's context then counts below zero.
        assertThat(SqsConsumerHandler.remaining(context(-5_000))).isEqualTo(Duration.ZERO);
    }

    @Test
    void noDeadlineAtAllFallsBackToTheDefault() {
        // No Lambda-Runtime-Deadline-Ms: the context computes (int) (0 - now), which wraps around to any value.
        int wrapped = (int) (0 - System.currentTimeMillis());
        assertThat(SqsConsumerHandler.remaining(context(wrapped))).isEqualTo(Duration.ofSeconds(60));
        assertThat(SqsConsumerHandler.remaining(context(Integer.MAX_VALUE))).isEqualTo(Duration.ofSeconds(60));
        assertThat(SqsConsumerHandler.remaining(null)).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void aRealDeadlineIsTakenAsItIs() {
        assertThat(SqsConsumerHandler.remaining(context(29_500))).isEqualTo(Duration.ofMillis(29_500));
    }

    private static Context context(int remainingMillis) {
        return LambdaContexts.remaining(() -> remainingMillis);
    }
}
