package dev.redrive.cdk.consumer;

import dev.redrive.cdk.function.IsoDurations;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How long an idempotency claim must count: as long as a message can come back after its effect was applied — its
 * time in the source queue, then in the dead-letter queue, then in quarantine until its last possible replay — plus
 * a margin. A claim that expires sooner lets a late replay of an applied message apply again. Derived from the
 * stack's own settings (the longest source and dead-letter retention of any consumer, {@code sweeperRetention}); an
 * explicit {@code claimTtl} shorter than that is refused at synth.
 *
 * @param sourceRetention     the longest source-queue retention of any consumer
 * @param deadLetterRetention the longest dead-letter-queue retention of any consumer
 * @param quarantineRetention how long the sweeper keeps a dead letter replayable ({@code sweeperRetention})
 * @param ttl                 the claims' TTL: the derived one, or a longer explicit {@code claimTtl}
 */
public record ClaimTtl(
        Duration sourceRetention, Duration deadLetterRetention, Duration quarantineRetention, Duration ttl) {

    /** Added to the sum: clock skew, the replay's own trip through the source queue, and the time a sweep takes. */
    public static final Duration MARGIN = Duration.ofDays(1);

    /** The TTL for these consumers and quarantine retention, or {@code explicit} when it is long enough. */
    public static ClaimTtl derive(
            List<? extends IIdempotentConsumer> consumers, Duration quarantineRetention, Optional<Duration> explicit) {
        if (quarantineRetention.isNegative() || quarantineRetention.isZero()) {
            throw new IllegalArgumentException(
                    "sweeperRetention " + IsoDurations.format(quarantineRetention) + " must be positive");
        }
        Duration source = consumers.stream()
                .map(IIdempotentConsumer::sourceRetention)
                .max(Duration::compareTo)
                .orElse(Duration.ZERO);
        Duration deadLetter = consumers.stream()
                .map(IIdempotentConsumer::deadLetterRetention)
                .max(Duration::compareTo)
                .orElse(Duration.ZERO);
        Duration required = source.plus(deadLetter).plus(quarantineRetention).plus(MARGIN);
        if (explicit.isPresent() && explicit.get().compareTo(required) < 0) {
            throw new IllegalArgumentException("claimTtl " + IsoDurations.format(explicit.get())
                    + " is shorter than the longest time a message can come back after its effect was applied: source"
                    + " retention " + IsoDurations.format(source) + " + dead-letter retention "
                    + IsoDurations.format(deadLetter) + " + sweeperRetention "
                    + IsoDurations.format(quarantineRetention)
                    + " + margin " + IsoDurations.format(MARGIN) + " = " + IsoDurations.format(required)
                    + "; a replay after the claim expired would apply the effect twice. Raise -c claimTtl to at least "
                    + IsoDurations.format(required) + " (or leave it out to derive it), or lower -c sweeperRetention");
        }
        return new ClaimTtl(source, deadLetter, quarantineRetention, explicit.orElse(required));
    }
}
