package dev.redrive.core.payload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.testing.payload.ClaimChecksContract;
import dev.redrive.testing.payload.InMemoryClaimChecks;
import org.junit.jupiter.api.Test;

class InMemoryClaimChecksTest extends ClaimChecksContract {
    private final InMemoryClaimChecks store = new InMemoryClaimChecks();

    @Override
    protected ClaimChecks store() {
        return store;
    }

    @Test
    void withoutListBucketAGonePayloadIsRefusedAsS3RefusesIt() {
        InMemoryClaimChecks onAws = InMemoryClaimChecks.withoutListBucket();
        ClaimChecks.ClaimCheck check = onAws.checkIn("{\"eventId\":\"evt-403\"}");
        assertThat(onAws.read(check.body(), check.attributes()).forbidden()).isFalse();
        onAws.discard(check.body(), check.attributes());

        assertThatThrownBy(() -> onAws.payloadOf(check.body(), check.attributes()))
                .isInstanceOf(ClaimCheckForbidden.class)
                .hasMessageContaining("AccessDenied");
        ClaimChecks.Read read = onAws.read(check.body(), check.attributes());
        assertThat(read.forbidden()).isTrue();
        assertThat(read.payload()).isNull();
        assertThat(read.missing()).contains("gone");
    }
}
