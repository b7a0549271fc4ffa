package dev.redrive.core.quarantine;

import java.util.Objects;

/** Where a dead letter's payload is: inline in its ledger record, kept aside (too large), or archived with it. */
public sealed interface PayloadLocation {

    /** In the ledger record itself. */
    record Inline(String body) implements PayloadLocation {
        public Inline {
            Objects.requireNonNull(body, "body");
        }
    }

    /** In the payload store, under {@code reference} (a payload too large for the ledger item). */
    record Aside(String reference) implements PayloadLocation {
        public Aside {
            Objects.requireNonNull(reference, "reference");
        }
    }

    /** In the archive store's object {@code archiveRef}, with the whole record; the ledger keeps a tombstone. */
    record Archived(String archiveRef) implements PayloadLocation {
        public Archived {
            Objects.requireNonNull(archiveRef, "archiveRef");
        }
    }

    /** The body when inline, else null. */
    default String inlineBody() {
        return this instanceof Inline i ? i.body() : null;
    }

    /** The payload store's reference when kept aside, else null. */
    default String asideReference() {
        return this instanceof Aside a ? a.reference() : null;
    }

    /** The archive object when archived, else null. */
    default String archiveReference() {
        return this instanceof Archived a ? a.archiveRef() : null;
    }
}
