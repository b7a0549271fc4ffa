package dev.redrive.core.replay;

/**
 * The schema check of a replay: is the payload readable by the consumer's current schema, or can a registered,
 * safe upcaster make it so?
 */
public interface SchemaGate {

    Verdict check(String consumer, String body);

    /** What the schema check found. */
    sealed interface Verdict {}

    /** Already in the current version. */
    record Current() implements Verdict {}

    /** An older version, transformed by registered upcasters into {@code body} of the current version. */
    record Upcast(String body, int fromVersion, int toVersion) implements Verdict {}

    /** Cannot be made current; {@code reason} names the incompatibility. */
    record Incompatible(String reason) implements Verdict {}
}
