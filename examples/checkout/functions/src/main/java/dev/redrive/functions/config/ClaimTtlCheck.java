package dev.redrive.functions.config;

import dev.redrive.core.claim.ClaimRetention;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Optional;

/**
 * Refuses to start a function whose claims would expire while a message can still come back (a late replay would
 * then find no claim and apply the effect twice). The IaC derives the TTL so this holds; this catches a hand-set or
 * stale configuration, in the init phase, before any message is processed.
 */
@ApplicationScoped
public class ClaimTtlCheck {

    void check(@Observes StartupEvent start, RedriveConfig config) {
        problem(config).ifPresent(message -> {
            throw new IllegalStateException(message);
        });
    }

    /** The settings claims must cover. */
    public static ClaimRetention retention(RedriveConfig config) {
        return new ClaimRetention(
                config.claims().sourceRetention(),
                config.claims().deadLetterRetention(),
                config.sweeper().retention());
    }

    /** What is wrong with the claim TTL of {@code config}, naming the settings; empty when it is safe. */
    static Optional<String> problem(RedriveConfig config) {
        return problem(config.claims().recordTtl(), retention(config));
    }

    static Optional<String> problem(Duration recordTtl, ClaimRetention retention) {
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
