package dev.redrive.core.consumer;

import static dev.redrive.testing.Messages.message;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.failure.PermanentFailure;
import dev.redrive.core.failure.TransientFailure;
import dev.redrive.core.payload.ClaimCheckCleanup;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.testing.ManualClock;
import dev.redrive.testing.ScriptedConsumer;
import dev.redrive.testing.claim.InMemoryClaimStore;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Deploy markers, the producing side: a processor built with the consumer's build version records it with every failure
 * it records, on the claim and on the dead letter it sends; one built without records none.
 */
class MessageProcessorBuildVersionTest {

    static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    final ManualClock clock = new ManualClock(T0);
    final InMemoryClaimStore store = new InMemoryClaimStore();
    final FullJitterBackoff backoff = new FullJitterBackoff(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(5));
    final LeasePolicy leases = new LeasePolicy(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofDays(35));
    final ScriptedConsumer consumer = new ScriptedConsumer();

    MessageProcessor processor() {
        return new MessageProcessor(store, leases, backoff, new Mulberry32(1), clock, ProcessingListener.NONE);
    }

    MessageOutcome process(MessageProcessor p, String body, int receiveCount) {
        return p.process(consumer, message(body, receiveCount, null), () -> Duration.ofSeconds(30));
    }

    FailureRecord claimFailure(String id) {
        return store.find(new IdempotencyKey("scripted", id), clock.instant())
                .orElseThrow()
                .lastFailure();
    }

    @Test
    void eachFailureOnTheClaimCarriesTheVersionOfTheBuildThatFailedIt() {
        consumer.failing("order-1", (k, c) -> new TransientFailure("down", "payments"));

        process(processor().withBuildVersion("v1"), "order-1", 1);
        assertThat(claimFailure("order-1").buildVersion()).isEqualTo("v1");

        clock.advance(Duration.ofMinutes(2));
        process(processor().withBuildVersion(" v2 "), "order-1", 2);
        FailureRecord second = claimFailure("order-1");
        assertThat(second.buildVersion()).as("the later build's, stripped").isEqualTo("v2");
        assertThat(second.firstFailedAt()).as("the first failure time is kept").isEqualTo(T0);
        assertThat(second.attempt()).isEqualTo(2);
    }

    @Test
    void aDeadLetterTheConsumerSendsCarriesTheVersion() {
        consumer.failing("order-2", (k, c) -> new PermanentFailure("CardDeclined", "issuer said no"));

        MessageOutcome outcome = process(processor().withBuildVersion("2026.12.06-abc123"), "order-2", 1);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        MessageOutcome.DeadLettered.class,
                        d -> assertThat(d.failure().buildVersion()).isEqualTo("2026.12.06-abc123"));
        assertThat(claimFailure("order-2").buildVersion()).isEqualTo("2026.12.06-abc123");
    }

    @Test
    void anUnreadableMessageIsDeadLetteredWithTheVersionToo() {
        MessageOutcome outcome = process(processor().withBuildVersion("v7"), "|no key here", 1);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        MessageOutcome.DeadLettered.class,
                        d -> assertThat(d.failure().buildVersion()).isEqualTo("v7"));
    }

    @Test
    void aProcessorBuiltWithoutAVersionRecordsNoneAndKeepsItAcrossItsOtherCopies() {
        consumer.failing("order-3", (k, c) -> new TransientFailure("down", "payments"));
        MessageProcessor plain = processor();

        process(plain, "order-3", 1);

        assertThat(plain.buildVersion()).isEmpty();
        assertThat(claimFailure("order-3").buildVersion()).isEmpty();
        assertThat(processor()
                        .withBuildVersion("v3")
                        .withClaimChecks(ClaimChecks.NONE, ClaimCheckCleanup.LIFECYCLE)
                        .buildVersion())
                .isEqualTo("v3");
    }
}
