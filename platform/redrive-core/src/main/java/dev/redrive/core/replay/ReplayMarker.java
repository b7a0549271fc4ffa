package dev.redrive.core.replay;

import java.util.Optional;

/**
 * The mark a replayed message carries, as one string message attribute {@value #ATTRIBUTE}
 * ({@code <quarantineId>:<replayCount>}): if it dead-letters again, the sweeper reopens the same ledger record and
 * counts a failed replay instead of quarantining a stranger.
 */
public record ReplayMarker(String quarantineId, int replayCount) {

    public static final String ATTRIBUTE = "redrive-replay";

    public String encode() {
        return quarantineId + ":" + replayCount;
    }

    public static Optional<ReplayMarker> decode(String value) {
        if (value == null) {
            return Optional.empty();
        }
        int at = value.lastIndexOf(':');
        if (at <= 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ReplayMarker(value.substring(0, at), Integer.parseInt(value.substring(at + 1))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
