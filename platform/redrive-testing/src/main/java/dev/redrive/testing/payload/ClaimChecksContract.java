package dev.redrive.testing.payload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.payload.ClaimCheckMissing;
import dev.redrive.core.payload.ClaimChecks;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The contract of {@link ClaimChecks}, for the in-memory fake and S3. */
public abstract class ClaimChecksContract {

    /** 5 MiB: far past SQS's 1 MiB, the size the design's large-payload path is shown with. */
    protected static final int FIVE_MIB = 5 * 1024 * 1024;

    protected abstract ClaimChecks store();

    protected static String payloadOf(int bytes) {
        StringBuilder b = new StringBuilder(bytes);
        b.append("{\"eventId\":\"evt-large\",\"blob\":\"");
        while (b.length() < bytes - 2) {
            b.append((char) ('a' + b.length() % 26));
        }
        return b.append("\"}").toString();
    }

    @Test
    void aPayloadCheckedInIsReadBackWholeThroughItsPointer() {
        String payload = payloadOf(FIVE_MIB);

        ClaimChecks.ClaimCheck check = store().checkIn(payload);

        assertThat(check.body().length()).isLessThan(2048);
        assertThat(store().isClaimCheck(check.body(), check.attributes())).isTrue();
        assertThat(store().payloadOf(check.body(), check.attributes())).isEqualTo(payload);
    }

    @Test
    void aPointerTravelsWithTheMessagesOwnAttributes() {
        ClaimChecks.ClaimCheck check = store().checkIn("{\"eventId\":\"evt-1\"}");
        Map<String, String> attributes = new HashMap<>(Map.of("traceparent", "00-abc-01"));
        attributes.putAll(check.attributes());

        assertThat(store().payloadOf(check.body(), attributes)).isEqualTo("{\"eventId\":\"evt-1\"}");
    }

    @Test
    void aBodyWithoutTheMarkingAttributeIsThePayloadEvenWhenItLooksLikeAPointer() {
        ClaimChecks.ClaimCheck check = store().checkIn("{\"eventId\":\"evt-2\"}");

        assertThat(store().isClaimCheck(check.body(), Map.of())).isFalse();
        assertThat(store().payloadOf(check.body(), Map.of())).isEqualTo(check.body());
        assertThat(store().payloadOf("{\"eventId\":\"plain\"}", Map.of("other", "1")))
                .isEqualTo("{\"eventId\":\"plain\"}");
    }

    @Test
    void aStoredBodyIsReadAsItsPayloadAPointerAsWhatItPointsAtAndAGonePayloadAsWhy() {
        ClaimChecks.ClaimCheck check = store().checkIn("{\"eventId\":\"evt-read\"}");

        assertThat(store().read("{\"eventId\":\"plain\"}", Map.of()))
                .isEqualTo(new ClaimChecks.Read("{\"eventId\":\"plain\"}", false, "{\"eventId\":\"plain\"}", null));
        assertThat(store().read(check.body(), check.attributes()))
                .isEqualTo(new ClaimChecks.Read(check.body(), true, "{\"eventId\":\"evt-read\"}", null));
        store().discard(check.body(), check.attributes());
        ClaimChecks.Read gone = store().read(check.body(), check.attributes());
        assertThat(gone.stored()).isEqualTo(check.body());
        assertThat(gone.claimCheck()).isTrue();
        assertThat(gone.payload()).isNull();
        assertThat(gone.missing()).contains("gone");
    }

    @Test
    void aDiscardedPayloadIsASchemaFailureWithItsReason() {
        ClaimChecks.ClaimCheck check = store().checkIn("{\"eventId\":\"evt-3\"}");

        store().discard(check.body(), check.attributes());

        assertThatThrownBy(() -> store().payloadOf(check.body(), check.attributes()))
                .isInstanceOf(ClaimCheckMissing.class)
                .satisfies(
                        e -> assertThat(((ClaimCheckMissing) e).failureClass()).isEqualTo(FailureClass.SCHEMA))
                .hasMessageContaining("gone");
        store().discard(check.body(), check.attributes()); // discarding twice is a no-op
    }

    @Test
    void aMarkedMessageWhoseBodyIsNoPointerIsASchemaFailure() {
        ClaimChecks.ClaimCheck check = store().checkIn("{\"eventId\":\"evt-4\"}");

        assertThatThrownBy(() -> store().payloadOf("{\"eventId\":\"evt-4\"}", check.attributes()))
                .isInstanceOf(ClaimCheckMissing.class);
    }

    @Test
    void aClaimCheckIsLocatedFromItsPointerAloneTheSameInEveryCopyAndApartFromAnyOther() {
        ClaimChecks.ClaimCheck check = store().checkIn("{\"eventId\":\"evt-5\"}");
        ClaimChecks.ClaimCheck samePayload = store().checkIn("{\"eventId\":\"evt-5\"}");

        assertThat(store().locationOf(check.body(), check.attributes())).isPresent();
        store().discard(check.body(), check.attributes());
        assertThat(store().locationOf(check.body(), Map.copyOf(check.attributes())))
                .as("the same for a copy of the message, the payload gone")
                .isEqualTo(store().locationOf(check.body(), check.attributes()));
        assertThat(store().locationOf(samePayload.body(), samePayload.attributes()))
                .as("another check-in of the same payload is another object")
                .isNotEqualTo(store().locationOf(check.body(), check.attributes()));
        assertThat(store().locationOf("{\"eventId\":\"plain\"}", Map.of())).isEmpty();
        assertThat(store().locationOf("not a pointer", check.attributes())).isEmpty();
    }

    @Test
    void discardingAPlainMessageChangesNothing() {
        store().discard("{\"eventId\":\"plain\"}", Map.of());
    }
}
