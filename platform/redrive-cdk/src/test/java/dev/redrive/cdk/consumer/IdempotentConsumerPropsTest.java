package dev.redrive.cdk.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.cdk.function.FunctionRuntime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class IdempotentConsumerPropsTest {

    @Test
    void defaultsFollowRedrivesRules() {
        IdempotentConsumerProps props =
                IdempotentConsumerProps.builder("orders", "orders-handler").build();

        assertThat(props.maxReceiveCount()).isEqualTo(10);
        assertThat(props.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(props.visibilityTimeout()).isEqualTo(Duration.ofSeconds(180));
        assertThat(props.sourceRetention()).isEqualTo(Duration.ofDays(4));
        assertThat(props.deadLetterRetention()).isEqualTo(Duration.ofDays(14));
        assertThat(props.batchSize()).isEqualTo(10);
        assertThat(props.maxBatchingWindow()).isZero();
        assertThat(props.maxConcurrency()).isEqualTo(5);
        assertThat(props.runtime()).isEqualTo(FunctionRuntime.JVM);
        assertThat(props.effectiveMemoryMb()).isEqualTo(1024);
        assertThat(props.backoff()).isEqualTo(BackoffSettings.DEFAULT);
        assertThat(props.buildVersion())
                .as("none: the function's published version")
                .isEmpty();
    }

    @Test
    void aBuildVersionIsKeptStrippedAndOneThatNoConsumerWouldAcceptIsRefusedSayingWhy() {
        assertThat(IdempotentConsumerProps.builder("orders", "h")
                        .buildVersion(" 1.5.0+abc123 ")
                        .build()
                        .buildVersion())
                .contains("1.5.0+abc123");
        assertThat(IdempotentConsumerProps.builder("orders", "h")
                        .buildVersion("v".repeat(128))
                        .build()
                        .buildVersion())
                .hasValueSatisfying(v -> assertThat(v).hasSize(128));

        assertThatThrownBy(() -> IdempotentConsumerProps.builder("orders", "h")
                        .buildVersion("  ")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "buildVersion of consumer orders is blank: leave it unset for the published Lambda version");
        assertThatThrownBy(() -> IdempotentConsumerProps.builder("orders", "h")
                        .buildVersion("v".repeat(129))
                        .build())
                .hasMessageContaining("buildVersion of consumer orders is 129 characters long; at most 128");
        assertThatThrownBy(() -> IdempotentConsumerProps.builder("orders", "h")
                        .buildVersion("v1\nv2")
                        .build())
                .hasMessageContaining("buildVersion of consumer orders holds a control character");
    }

    @Test
    void theDefaultVisibilityTimeoutFollowsALongerFunctionTimeout() {
        IdempotentConsumerProps props = IdempotentConsumerProps.builder("orders", "h")
                .timeout(Duration.ofMinutes(2))
                .runtime(FunctionRuntime.JVM)
                .build();

        assertThat(props.visibilityTimeout()).isEqualTo(Duration.ofMinutes(12));
        assertThat(props.effectiveMemoryMb()).isEqualTo(1024);
    }

    @Test
    void rejectsAVisibilityTimeoutShorterThanSixFunctionTimeouts() {
        var builder = IdempotentConsumerProps.builder("orders", "h")
                .timeout(Duration.ofSeconds(30))
                .visibilityTimeout(Duration.ofSeconds(179));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("visibility timeout PT2M59S of orders is shorter than 6 x the function timeout");
        assertThat(IdempotentConsumerProps.builder("orders", "h")
                        .visibilityTimeout(Duration.ofSeconds(180))
                        .build()
                        .visibilityTimeout())
                .isEqualTo(Duration.ofSeconds(180));
    }

    @Test
    void theVisibilityTimeoutCoversSixFunctionTimeoutsPlusTheBatchingWindow() {
        var builder = IdempotentConsumerProps.builder("orders", "h")
                .timeout(Duration.ofSeconds(30))
                .maxBatchingWindow(Duration.ofSeconds(20));

        assertThat(builder.build().visibilityTimeout()).isEqualTo(Duration.ofSeconds(200));
        assertThatThrownBy(
                        () -> builder.visibilityTimeout(Duration.ofSeconds(199)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("visibility timeout PT3M19S of orders is shorter than 6 x the function timeout "
                        + "PT30S + the batching window PT20S (PT3M20S)");
    }

    @Test
    void rejectsADeadLetterQueueThatForgetsBeforeItsSource() {
        var builder = IdempotentConsumerProps.builder("orders", "h")
                .sourceRetention(Duration.ofDays(14))
                .deadLetterRetention(Duration.ofDays(14));

        assertThatThrownBy(builder::build).hasMessageContaining("must be longer than the source retention");
    }

    @Test
    void rejectsSettingsLambdaAndSqsWouldRefuse() {
        assertThatThrownBy(() -> IdempotentConsumerProps.builder("orders", "h")
                        .maxConcurrency(1)
                        .build())
                .hasMessage("maxConcurrency of orders must be 2 to 1000, was 1");
        assertThatThrownBy(() -> IdempotentConsumerProps.builder("orders", "h")
                        .batchSize(100)
                        .build())
                .hasMessageContaining("needs a maxBatchingWindow");
        assertThatThrownBy(() -> IdempotentConsumerProps.builder("orders", "h")
                        .maxReceiveCount(0)
                        .build())
                .hasMessageContaining("maxReceiveCount");
        assertThatThrownBy(
                        () -> IdempotentConsumerProps.builder("Orders_1", "h").build())
                .hasMessageContaining("consumer name 'Orders_1'");
        assertThatThrownBy(() -> IdempotentConsumerProps.builder("orders", "h")
                        .timeout(Duration.ofHours(3))
                        .build())
                .hasMessageContaining("exceeds the SQS maximum of 12 h");
        assertThat(IdempotentConsumerProps.builder("orders", "h")
                        .batchSize(100)
                        .maxBatchingWindow(Duration.ofSeconds(1))
                        .build()
                        .batchSize())
                .isEqualTo(100);
    }

    @Test
    void backoffMustBeCarriedOutBySqs() {
        assertThatThrownBy(() -> new BackoffSettings(Duration.ofSeconds(2), 0.5, Duration.ofMinutes(1)))
                .hasMessageContaining("multiplier must be at least 1");
        assertThatThrownBy(() -> new BackoffSettings(Duration.ofSeconds(2), 2, Duration.ofHours(13)))
                .hasMessageContaining("12 h");
        assertThat(new BackoffSettings(Duration.ofSeconds(1), 1.5, Duration.ofMinutes(1)).multiplierText())
                .isEqualTo("1.5");
    }
}
