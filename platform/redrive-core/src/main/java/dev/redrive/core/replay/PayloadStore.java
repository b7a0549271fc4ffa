package dev.redrive.core.replay;

import dev.redrive.core.quarantine.QuarantineRecord;
import java.util.Optional;

/** Where payloads too large for a ledger record are kept (S3), referenced from the record. */
public interface PayloadStore {

    /**
     * Stores {@code body} for quarantine record {@code quarantineId} (or for a version of its payload, named {@code
     * <id>/v<version>}: an upcast body, kept apart from the original); returns its reference. Storing again under the
     * same name replaces it.
     */
    String put(String quarantineId, String body);

    String get(String reference);

    /**
     * The payload of {@code record}: kept inline, else read from here by its reference; empty when it has neither
     * (a tombstone, once archived).
     */
    default Optional<String> bodyOf(QuarantineRecord record) {
        if (record.body() != null) {
            return Optional.of(record.body());
        }
        return Optional.ofNullable(record.bodyRef()).map(this::get);
    }
}
