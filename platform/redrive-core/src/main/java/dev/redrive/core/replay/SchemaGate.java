package dev.redrive.core.replay;

import java.util.Set;

/**
 * The schema check of a replay: is the payload readable by the consumer's current schema, or can a registered,
 * safe upcaster make it so?
 */
public interface SchemaGate {

    Verdict check(String consumer, String body);

    /**
     * Where {@code body} holds values its consumer's schema marks sensitive, as paths ({@code $.customer.email},
     * {@code $.cards[0].pan}), or {@code $} alone when they cannot be told apart (not JSON, no schema): what an audit
     * trail must not keep the values of (an edit's diff shows that they changed, not to what). None by default.
     */
    default Set<String> sensitivePaths(String consumer, String body) {
        return Set.of();
    }

    /** What the schema check found. */
    sealed interface Verdict {}

    /** Already in the current version. */
    record Current() implements Verdict {}

    /** An older version, transformed by registered upcasters into {@code body} of the current version. */
    record Upcast(String body, int fromVersion, int toVersion) implements Verdict {}

    /** Cannot be made current; {@code reason} names the incompatibility. */
    record Incompatible(String reason) implements Verdict {}
}
