package dev.redrive.core.sweeper;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A replay resumed from IDEMPOTENCY_CHECK (after a Deferred or a failed send) sends exactly the body that passed the
 * schema check: the upcast one, whether the payload is inline or kept aside (too large for the ledger).
 */
class ResumedUpcastReplayTest {

    final SweeperFixture f = new SweeperFixture();
    final Actor ada = Actor.person("ada");
    static final String LARGE_V1 = "v1:big|" + "x".repeat(5_000);
    static final String LARGE_V2 = LARGE_V1.substring(3);

    QuarantineRecord only() {
        assertThat(f.ledger.all()).hasSize(1);
        return f.ledger.all().get(0);
    }

    /** The start of a large body and its length: enough to tell v1 from v2 without printing 5,000 characters. */
    static String head(String body) {
        return body.substring(0, 10) + "… (" + body.length() + " chars)";
    }

    @Test
    void aLargeUpcastPayloadResumedAfterADeferredReplaySendsTheUpcastBody() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached(LARGE_V1, FailureClass.SCHEMA, "OutdatedVersion", null, T0));
        f.sweep();
        assertThat(only().bodyRef()).as("kept aside").isNotNull();
        f.claims.claim(
                LeasePolicy.DEFAULT.request(
                        new IdempotencyKey("scripted", "big"),
                        PayloadFingerprint.of(LARGE_V2),
                        MessageOrigin.UNKNOWN,
                        T0,
                        Duration.ofSeconds(60)),
                T0);

        assertThat(f.replays.replay(only().id(), ada, "upcaster shipped", Optional.empty(), false))
                .isInstanceOf(ReplayOutcome.Deferred.class);
        assertThat(only().state()).isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);
        f.clock.advance(Duration.ofMinutes(5)); // the claim's lease has expired: not applied
        ReplayOutcome resumed = f.replays.replay(only().id(), ada, "again", Optional.empty(), false);

        assertThat(resumed).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(f.sender.sent())
                .singleElement()
                .satisfies(s -> assertThat(head(s.body()))
                        .as("the upcast body, not the original v1 one")
                        .isEqualTo(head(LARGE_V2)));
        assertThat(f.sender.sent().get(0).body()).isEqualTo(LARGE_V2);
        assertThat(only().bodyRef()).as("still kept aside, not inline").isNotNull();
    }

    @Test
    void aLargeUpcastPayloadResumedAfterAFailedSendSendsTheUpcastBody() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached(LARGE_V1, FailureClass.SCHEMA, "OutdatedVersion", null, T0));
        f.sweep();
        f.sender.failNextSends(1);
        assertThatThrownBy(() -> f.replays.replay(only().id(), ada, "upcaster shipped", Optional.empty(), false))
                .hasMessageContaining("failed (simulated)");
        assertThat(only().state()).isEqualTo(QuarantineState.IDEMPOTENCY_CHECK);

        ReplayOutcome resumed = f.replays.replay(only().id(), ada, "again", Optional.empty(), false);

        assertThat(resumed).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(f.sender.sent())
                .singleElement()
                .satisfies(s -> assertThat(head(s.body()))
                        .as("the upcast body, not the original v1 one")
                        .isEqualTo(head(LARGE_V2)));
        assertThat(f.sender.sent().get(0).body()).isEqualTo(LARGE_V2);
        assertThat(f.payloads.bodyOf(only()).map(ResumedUpcastReplayTest::head))
                .as("what the record keeps is what was sent")
                .contains(head(LARGE_V2));
    }

    @Test
    void anInlineUpcastPayloadResumedAfterAFailedSendSendsTheUpcastBody() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached("v1:small|x", FailureClass.SCHEMA, "OutdatedVersion", null, T0));
        f.sweep();
        f.sender.failNextSends(1);
        assertThatThrownBy(() -> f.replays.replay(only().id(), ada, "upcaster shipped", Optional.empty(), false))
                .hasMessageContaining("failed (simulated)");

        f.replays.replay(only().id(), ada, "again", Optional.empty(), false);

        assertThat(f.sender.sent())
                .singleElement()
                .satisfies(s -> assertThat(s.body()).isEqualTo("small|x"));
    }
}
