package dev.redrive.schema;

import static dev.redrive.schema.Fixtures.V1;
import static dev.redrive.schema.Fixtures.V2;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.replay.ClaimLookupIdempotencyGate;
import dev.redrive.core.replay.IdempotencyGate;
import dev.redrive.testing.claim.InMemoryClaimStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The idempotency gate built from routes finds the claim a consumer reading the same contract made. */
class RouteIdempotencyTest {

    static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");

    final RoutesDocument routes = Fixtures.routes();
    final Map<String, ContractReader> readers = routes.readers(List.of());
    final InMemoryClaimStore claims = new InMemoryClaimStore();
    final IdempotencyGate gate = new ClaimLookupIdempotencyGate(routes.keyReaders(readers), claims);

    @Test
    void aClaimMadeByTheConsumerIsFoundUnderTheSameKeyAndFingerprint() {
        assertThat(gate.check("welcome-email", V2, NOW)).isEqualTo(new IdempotencyGate.NotApplied("welcome-email#s-1"));

        complete(
                "welcome-email",
                readers.get("welcome-email").parse(Fixtures.message(V1)).canonicalPayload());

        assertThat(gate.check("welcome-email", V2, NOW)).isInstanceOf(IdempotencyGate.AlreadyApplied.class);
        assertThat(gate.check("welcome-email", V2.replace("ada@", "eve@"), NOW))
                .isInstanceOf(IdempotencyGate.Unsafe.class);
    }

    @Test
    void anAttributeKeyIsReadFromTheDeadLettersAttributes() {
        assertThat(gate.check("audit", "{\"what\":\"x\"}", Map.of("eventId", "a-1"), null, NOW))
                .isEqualTo(new IdempotencyGate.NotApplied("audit#a-1"));
    }

    @Test
    void aRouteWithoutAContractOrAnUndeclaredConsumerIsUnsafe() {
        assertThat(gate.check("legacy", V2, NOW))
                .isEqualTo(new IdempotencyGate.Unsafe(
                        "the consumer cannot read the payload: route legacy declares no key"));
        assertThat(gate.check("nobody", V2, NOW))
                .isEqualTo(
                        new IdempotencyGate.Unsafe(
                                "no consumer named 'nobody' is deployed with the sweeper (known: audit, legacy, welcome-email)"));
    }

    private void complete(String consumer, String canonical) {
        IdempotencyKey key = new IdempotencyKey(consumer, "s-1");
        ClaimOutcome outcome = claims.claim(
                new ClaimRequest(
                        key,
                        PayloadFingerprint.of(canonical),
                        NOW.plusSeconds(60),
                        NOW.plus(Duration.ofDays(30)),
                        MessageOrigin.UNKNOWN),
                NOW);
        long token = ((ClaimOutcome.Acquired) outcome).claim().fencingToken();
        claims.complete(key, token, "sent", NOW.plus(Duration.ofDays(30)), NOW);
    }
}
