package dev.redrive.lambda;

import dev.redrive.core.claim.ClaimRetention;
import java.time.Duration;
import java.util.Optional;

/**
 * Refuses to start a function whose claims would expire while a message can still come back (a late replay would
 * then find no claim and apply the effect twice). The IaC derives the TTL so this holds; this catches a hand-set or
 * stale configuration, in the init phase, before any message is processed.
 */
public final class ClaimTtlCheck {

    private ClaimTtlCheck() {}

    /** Throws {@link IllegalStateException}, naming the settings, when the claim TTL of {@code settings} is unsafe. */
    public static void check(RedriveSettings.Claims settings) {
        problem(settings.recordTtl(), settings.retention()).ifPresent(message -> {
            throw new IllegalStateException(message);
        });
    }

    /** What is wrong with {@code recordTtl} for {@code retention}, naming the settings; empty when it is safe. */
    public static Optional<String> problem(Duration recordTtl, ClaimRetention retention) {
        if (retention.covers(recordTtl)) {
            return Optional.empty();
        }
        return Optional.of("REDRIVE_CLAIMS_RECORD_TTL (redrive.claims.record-ttl) " + recordTtl.toDays()
                + " days is shorter than the longest time a message can come back after its effect was applied: "
                + "REDRIVE_CLAIMS_SOURCE_RETENTION "
                + retention.sourceRetention().toDays()
                + " + REDRIVE_CLAIMS_DEAD_LETTER_RETENTION "
                + retention.deadLetterRetention().toDays()
                + " + REDRIVE_SWEEPER_RETENTION "
                + retention.quarantineRetention().toDays() + " + margin "
                + ClaimRetention.MARGIN.toDays() + " = "
                + retention.requiredTtl().toDays()
                + " days; a replay after its claim expired would apply the effect twice. Deploy through the IaC "
                + "(it derives the TTL), or raise the TTL");
    }
}
