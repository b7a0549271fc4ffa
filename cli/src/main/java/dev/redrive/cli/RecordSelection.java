package dev.redrive.cli;

import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the dead letters a {@link RecordFilter} selects from the ledger, through its indexes: by state (with the
 * arrival cutoff of {@code older-than} in the key condition) or, for a queue over many states, by queue. Oldest
 * arrival first.
 */
final class RecordSelection {

    private RecordSelection() {}

    /** Every record matching {@code filter}, oldest first. */
    static List<QuarantineRecord> select(QuarantineLedger ledger, RecordFilter filter, Instant now) {
        Map<String, QuarantineRecord> found = new LinkedHashMap<>();
        boolean byQueue = filter.queue().isPresent()
                && filter.states().size() > 2
                && filter.olderThan().isEmpty();
        if (byQueue) {
            ledger.ofQueue(filter.queue().get(), Integer.MAX_VALUE).forEach(r -> found.put(r.id(), r));
        } else {
            for (QuarantineState state : filter.states()) {
                List<QuarantineRecord> inState = filter.olderThan().isPresent()
                        ? ledger.arrivedBefore(
                                state, now.minus(filter.olderThan().get()), Integer.MAX_VALUE)
                        : ledger.inState(state, filter.queue(), Integer.MAX_VALUE);
                inState.forEach(r -> found.put(r.id(), r));
            }
        }
        List<QuarantineRecord> matching = new ArrayList<>();
        for (QuarantineRecord r : found.values()) {
            if (filter.matches(r, now)) {
                matching.add(r);
            }
        }
        matching.sort(Comparator.comparing(QuarantineRecord::arrivedAt).thenComparing(QuarantineRecord::id));
        return matching;
    }

    /** The record with {@code id}, or a usage error naming the table. */
    static QuarantineRecord require(QuarantineLedger ledger, String id, Settings settings) {
        Optional<QuarantineRecord> r = ledger.find(id);
        return r.orElseThrow(() -> CliException.usage("no dead letter '" + id + "' in quarantine table '"
                + settings.quarantineTable() + "' (see redrive list)"));
    }
}
