package dev.redrive.core.sweeper;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.payload.ClaimChecks;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.testing.payload.InMemoryClaimChecks;
import dev.redrive.testing.replay.RecordingReplaySender;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A dead letter that is a claim check (its payload kept in the claim-check store, the message a pointer): the
 * quarantine keeps the pointer, every check reads the payload behind it, a replay sends the pointer again, and the
 * archive stores the whole payload. Payloads here are 5 MiB, past SQS's 1 MiB.
 */
class ClaimCheckDeadLetterTest {

    static final String FIVE_MIB = "x".repeat(5 * 1024 * 1024);

    final SweeperFixture f = new SweeperFixture();
    final InMemoryClaimChecks checks = f.claimChecks;
    final Actor ada = Actor.person("ada");

    QuarantineRecord only() {
        assertThat(f.ledger.all()).hasSize(1);
        return f.ledger.all().get(0);
    }

    /** A claim check of {@code payload} as its consumer dead-lettered it, with the failure it attached. */
    ClaimChecks.ClaimCheck deadLetter(String payload, FailureClass c, String key) {
        ClaimChecks.ClaimCheck check = checks.checkIn(payload);
        Map<String, MessageAttribute> attributes = new HashMap<>(check.messageAttributes());
        attributes.put("trace", MessageAttribute.ofString("t"));
        FailureRecord failure =
                new FailureRecord(new Classification(c, "Rejected", "rejected", null), 2, T0, T0, ROUTE.sourceQueue());
        f.dlq.add(
                ROUTE.deadLetterQueue(),
                new ArrivedDeadLetter(
                        UUID.randomUUID().toString(),
                        "rh",
                        check.body(),
                        attributes,
                        2,
                        T0,
                        Optional.of(new ArrivedDeadLetter.AttachedFailure(
                                "scripted", "scripted#" + key, UUID.randomUUID().toString(), failure)),
                        Optional.empty()));
        return check;
    }

    /** A payload told apart without printing 5 MiB: its start, its length and its SHA-256. */
    static String digest(String payload) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(payload.getBytes(StandardCharsets.UTF_8));
            return payload.substring(0, Math.min(12, payload.length())) + "… (" + payload.length() + " chars, sha256 "
                    + HexFormat.of().formatHex(hash) + ")";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    ReplayOutcome replay() {
        return f.replays.replay(only().id(), ada, "looked at it", Optional.empty(), false);
    }

    @Test
    void theQuarantineKeepsThePointerAndItsAttributes() {
        ClaimChecks.ClaimCheck check = deadLetter("big|" + FIVE_MIB, FailureClass.PERMANENT, "big");

        f.sweep();

        assertThat(only().body()).as("the pointer, not the payload").isEqualTo(check.body());
        assertThat(only().attributes())
                .containsEntry(
                        InMemoryClaimChecks.ATTRIBUTE, check.messageAttributes().get(InMemoryClaimChecks.ATTRIBUTE))
                .containsEntry("trace", MessageAttribute.ofString("t"));
    }

    @Test
    void aClaimCheckWithoutMetadataIsKeyedByItsPayload() {
        ClaimChecks.ClaimCheck check = checks.checkIn("crashed|" + FIVE_MIB);
        f.dlq.add(
                ROUTE.deadLetterQueue(),
                new ArrivedDeadLetter(
                        UUID.randomUUID().toString(),
                        "rh",
                        check.body(),
                        check.messageAttributes(),
                        5,
                        T0,
                        Optional.empty(),
                        Optional.empty()));

        f.sweep();

        assertThat(only().idempotencyKey()).isEqualTo("scripted#crashed");
    }

    @Test
    void aReplaySendsThePointerAgainWithItsAttributes() {
        ClaimChecks.ClaimCheck check = deadLetter("big|" + FIVE_MIB, FailureClass.PERMANENT, "big");
        f.sweep();

        assertThat(replay()).isInstanceOf(ReplayOutcome.Sent.class);

        RecordingReplaySender.Sent sent = f.sender.sent().get(0);
        assertThat(sent.body()).isEqualTo(check.body());
        assertThat(sent.attributes())
                .containsEntry(
                        InMemoryClaimChecks.ATTRIBUTE, check.messageAttributes().get(InMemoryClaimChecks.ATTRIBUTE))
                .containsKey(ReplayMarker.ATTRIBUTE);
        assertThat(digest(checks.payloadOf(sent.body(), sent.stringAttributes())))
                .isEqualTo(digest("big|" + FIVE_MIB));
    }

    @Test
    void aClaimCheckWhosePayloadIsAlreadyAppliedIsNotSentAgain() {
        IdempotencyKey key = new IdempotencyKey("scripted", "done");
        f.claims.claim(
                LeasePolicy.DEFAULT.request(
                        key,
                        PayloadFingerprint.of("done|" + FIVE_MIB),
                        MessageOrigin.UNKNOWN,
                        T0,
                        Duration.ofSeconds(30)),
                T0);
        f.claims.complete(key, 1, "ok", T0);
        deadLetter("done|" + FIVE_MIB, FailureClass.PERMANENT, "done");
        f.sweep();

        assertThat(replay()).isInstanceOf(ReplayOutcome.AlreadyApplied.class);

        assertThat(f.sender.sent()).isEmpty();
        assertThat(only().state()).isEqualTo(QuarantineState.REPLAYED);
    }

    @Test
    void anIncompatiblePayloadBehindAPointerIsArchivedNotSent() {
        deadLetter("v0:old|" + FIVE_MIB, FailureClass.SCHEMA, "old");
        f.sweep();

        assertThat(replay()).isInstanceOf(ReplayOutcome.Refused.class);

        assertThat(f.sender.sent()).isEmpty();
        assertThat(only().state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(only().note()).contains("v0 payload has no upcaster");
    }

    @Test
    void anUpcastPayloadBehindAPointerIsSentAsANewClaimCheckOfTheUpcastBody() {
        ClaimChecks.ClaimCheck original = deadLetter("v1:up|" + FIVE_MIB, FailureClass.SCHEMA, "up");
        f.sweep();

        assertThat(replay()).isInstanceOf(ReplayOutcome.Sent.class);

        RecordingReplaySender.Sent sent = f.sender.sent().get(0);
        assertThat(sent.body()).as("a new pointer").isNotEqualTo(original.body());
        assertThat(checks.isClaimCheck(sent.body(), sent.stringAttributes())).isTrue();
        assertThat(digest(checks.payloadOf(sent.body(), sent.stringAttributes())))
                .isEqualTo(digest("up|" + FIVE_MIB));
        assertThat(sent.attributes())
                .containsEntry(
                        InMemoryClaimChecks.ATTRIBUTE,
                        MessageAttribute.ofNumber(Integer.toString(("up|" + FIVE_MIB).length())));
        assertThat(digest(checks.payloadOf(original.body(), original.attributes())))
                .as("the original payload is left for the store's lifecycle")
                .isEqualTo(digest("v1:up|" + FIVE_MIB));
    }

    @Test
    void aPointerWhosePayloadIsGoneIsArchivedWithTheReason() {
        ClaimChecks.ClaimCheck check = deadLetter("gone|" + FIVE_MIB, FailureClass.PERMANENT, "gone");
        f.sweep();
        checks.discard(check.body(), check.attributes());

        assertThat(replay())
                .isInstanceOfSatisfying(
                        ReplayOutcome.Refused.class, r -> assertThat(r.reason()).contains("is gone"));

        assertThat(f.sender.sent()).isEmpty();
        assertThat(only().state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(only().note()).contains("is gone");
    }

    @Test
    void aDryRunReadsThePayloadBehindThePointer() {
        deadLetter("v0:old|" + FIVE_MIB, FailureClass.SCHEMA, "old");
        f.sweep();

        assertThat(f.replays.replay(only().id(), ada, "dry", Optional.empty(), true))
                .isInstanceOf(ReplayOutcome.Refused.class);
        assertThat(only().state()).isEqualTo(QuarantineState.QUARANTINED);
    }

    @Test
    void theArchiveStoresTheWholePayloadAndNamesThePointer() {
        ClaimChecks.ClaimCheck check = deadLetter("kept|" + FIVE_MIB, FailureClass.PERMANENT, "kept");
        f.sweep();
        f.clock.advance(f.settings.retention().plusMinutes(1));

        f.sweep();

        List<ArchiveStore.Entry> archived =
                f.archive.objects().values().stream().flatMap(List::stream).toList();
        assertThat(archived).singleElement().satisfies(e -> {
            assertThat(digest(e.body())).isEqualTo(digest("kept|" + FIVE_MIB));
            assertThat(e.claimCheck()).isEqualTo(check.body());
        });
        assertThat(only().archivedToStore()).isTrue();
    }

    @Test
    void aClaimCheckWhosePayloadIsGoneIsArchivedWithThePointerAndWhy() {
        ClaimChecks.ClaimCheck check = deadLetter("lost|" + FIVE_MIB, FailureClass.PERMANENT, "lost");
        f.sweep();
        checks.discard(check.body(), check.attributes());
        f.clock.advance(f.settings.retention().plusMinutes(1));

        f.sweep();

        List<ArchiveStore.Entry> archived =
                f.archive.objects().values().stream().flatMap(List::stream).toList();
        assertThat(archived).singleElement().satisfies(e -> {
            assertThat(digest(e.body())).isEqualTo(digest(check.body()));
            assertThat(e.claimCheck()).isEqualTo(check.body());
            assertThat(e.archiveReason()).contains("is gone");
        });
    }
}
