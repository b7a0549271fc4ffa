package dev.redrive.core.sweeper;

import dev.redrive.core.quarantine.QuarantineRecord;
import java.time.LocalDate;
import java.util.List;

/**
 * Where expired dead letters go: batched objects (on S3: gzip JSON Lines, KMS-encrypted, partitioned by queue and
 * date), one line per dead letter with its payload, classification, audit trail and archive reason.
 */
public interface ArchiveStore {

    /**
     * Writes one object for {@code entries} of {@code sourceQueue} that arrived on {@code day}.
     *
     * @return the object's reference (the S3 key), which each tombstone keeps
     */
    String write(String sourceQueue, LocalDate day, List<Entry> entries);

    /**
     * One archived dead letter: the full record, its payload, and why it was archived.
     *
     * @param body       the whole payload: for a claim check, the payload it points at (or the pointer itself, when
     *                   that payload was gone, which {@code archiveReason} then says)
     * @param claimCheck the pointer the dead letter came as, when it was a claim check; null otherwise
     */
    record Entry(QuarantineRecord record, String body, String archiveReason, String claimCheck) {
        public Entry(QuarantineRecord record, String body, String archiveReason) {
            this(record, body, archiveReason, null);
        }
    }
}
