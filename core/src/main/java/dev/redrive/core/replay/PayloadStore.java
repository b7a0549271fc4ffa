package dev.redrive.core.replay;

/** Where payloads too large for a ledger record are kept (S3), referenced from the record. */
public interface PayloadStore {

    /** Stores {@code body} for quarantine record {@code quarantineId}; returns its reference. */
    String put(String quarantineId, String body);

    String get(String reference);
}
