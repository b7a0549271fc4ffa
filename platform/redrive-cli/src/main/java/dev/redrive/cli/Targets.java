package dev.redrive.cli;

import dev.redrive.core.operator.QuarantineQuery;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The dead letters a command is told to work on: ids that must exist, or a {@code --filter}, through the port. */
final class Targets {

    private Targets() {}

    /** The record with {@code id}, or a usage error naming the table. */
    static QuarantineRecord require(Backend backend, String id) {
        return backend.operator()
                .show(id)
                .orElseThrow(() -> CliException.usage("no dead letter '" + id + "' in quarantine table '"
                        + backend.settings().quarantineTable() + "' (see redrive list)"));
    }

    /**
     * The ids given (each once, each existing) or the matches of {@code filter}, oldest first, at most {@code limit}. A
     * filter's queue may be a route's dead-letter queue (it stands for the source queue, said on {@code err}); one that
     * matches nothing must exist ({@link Known#requireQueue}).
     */
    static List<String> of(
            Backend backend,
            List<String> ids,
            String filter,
            Set<QuarantineState> defaultStates,
            int limit,
            PrintWriter err,
            String command) {
        List<String> targets = new ArrayList<>();
        if (filter == null) {
            for (String id : new LinkedHashSet<>(ids)) {
                targets.add(require(backend, id).id());
            }
            return targets;
        }
        QuarantineQuery parsed = RecordFilter.parse(filter, defaultStates, limit);
        Optional<String> queue = parsed.sourceQueue().map(q -> Known.sourceQueue(backend, q, err, command));
        QuarantineQuery query = new QuarantineQuery(
                queue, parsed.states(), parsed.classes(), parsed.olderThan(), parsed.errorType(), parsed.limit());
        backend.operator().list(query).forEach(r -> targets.add(r.id()));
        if (targets.isEmpty() && queue.isPresent()) {
            Known.requireQueue(backend, queue.get());
        }
        return targets;
    }
}
