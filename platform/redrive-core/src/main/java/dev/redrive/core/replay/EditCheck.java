package dev.redrive.core.replay;

import java.util.Optional;

/**
 * What the checks of an edited payload answered before anything else was done: the consumer's current schema, the
 * idempotency key (an edit must keep it), the diff from the original, and the refusal when one failed.
 *
 * @param schema  the schema check's answer, in words ({@code "current"}, or the validator's message)
 * @param key     the key check's answer, in words (the key kept, or the old and the new one)
 * @param diff    the {@linkplain PayloadDiff diff} from the original payload (empty when it could not be read)
 * @param refusal why the edit is refused; empty when it may go on to the idempotency check
 */
public record EditCheck(String schema, String key, String diff, Optional<String> refusal) {

    /** Whether the edit passed both checks. */
    public boolean passed() {
        return refusal.isEmpty();
    }
}
