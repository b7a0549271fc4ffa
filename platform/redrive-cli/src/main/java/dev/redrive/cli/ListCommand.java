package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.operator.FailureGroups;
import dev.redrive.core.operator.QuarantineQuery;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code redrive list}: the quarantine, filtered, as a table, JSON, or grouped by failure. */
@Command(
        name = "list",
        header = "List quarantined dead letters, filtered, or grouped by failure.",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = {
            "List quarantined dead letters, oldest first. By default the unresolved ones (QUARANTINED, "
                    + "UNDER_REVIEW, SCHEMA_CHECK, IDEMPOTENCY_CHECK) of every queue.",
            "With --group, failures are grouped by error type and reason (the way NServiceBus ServicePulse groups "
                    + "failed messages): count, first and last seen, classes, and a sample id to 'redrive show'."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  redrive list",
            "  redrive list --queue orders-receipts --class TRANSIENT --older-than 2h",
            "  redrive list --state all --error-type Timeout --limit 20",
            "  redrive list --group",
            "  redrive list --state REPLAYED --json"
        })
final class ListCommand implements Callable<Integer> {

    @ParentCommand
    RedriveCli root;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--queue",
            paramLabel = "NAME",
            order = 1,
            description = "Only dead letters of this source queue (name). A route's dead-letter queue stands for its "
                    + "source queue; a queue no route declares and no dead letter names is an error.")
    String queue;

    @Option(
            names = "--state",
            paramLabel = "STATE",
            order = 2,
            description = "States to list, joined with '|' (QUARANTINED, UNDER_REVIEW, SCHEMA_CHECK, "
                    + "IDEMPOTENCY_CHECK, REPLAYED, ARCHIVED), or 'all', or 'unresolved' (the default).")
    String state;

    @Option(
            names = "--class",
            paramLabel = "CLASS",
            order = 3,
            description = "Only this failure class: ${COMPLETION-CANDIDATES}.")
    FailureClass failureClass;

    @Option(
            names = "--older-than",
            paramLabel = "AGE",
            order = 4,
            description = "Only dead letters that arrived longer ago than this (90s, 15m, 2h, 3d).")
    Duration olderThan;

    @Option(
            names = "--error-type",
            paramLabel = "TYPE",
            order = 5,
            description = "Only this error type (as classified: Timeout, InvalidRecipient, OutdatedVersion...).")
    String errorType;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "100",
            order = 6,
            description = "At most this many rows (or groups); default ${DEFAULT-VALUE}.")
    int limit;

    @Option(
            names = "--group",
            order = 7,
            description = "Group by error type and reason instead of one row per " + "dead letter.")
    boolean group;

    @Option(names = "--json", order = 8, description = "Machine output: a JSON array.")
    boolean json;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw CliException.usage("--limit must be at least 1");
        }
        Instant now = root.context().clock().instant();
        Backend backend = root.backend();
        if (queue != null) {
            queue = Known.sourceQueue(backend, queue, spec.commandLine().getErr(), "redrive list");
        }
        List<QuarantineRecord> records = backend.operator().list(query());
        if (records.isEmpty() && queue != null) {
            Known.requireQueue(backend, queue);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (group) {
            printGroups(out, FailureGroups.of(records), records.size());
        } else {
            printRecords(out, records, now);
        }
        return ExitCodes.OK;
    }

    private void printRecords(PrintWriter out, List<QuarantineRecord> records, Instant now) {
        List<QuarantineRecord> shown = records.subList(0, Math.min(limit, records.size()));
        if (json) {
            ArrayNode array = Json.array();
            shown.forEach(r -> array.add(Json.summary(r, now)));
            Json.print(out, array);
            return;
        }
        if (noneMatch(out, shown)) {
            return;
        }
        Table table = new Table(
                List.of("ID", "STATE", "CLASS", "ERROR TYPE", "QUEUE", "AGE", "RCV", "REPLAYS", "REASON"),
                0,
                0,
                0,
                24,
                28,
                0,
                0,
                0,
                60);
        for (QuarantineRecord r : shown) {
            table.row(
                    r.id(),
                    r.state(),
                    r.classification().failureClass(),
                    r.classification().errorType(),
                    r.sourceQueue(),
                    Durations.format(r.age(now)),
                    r.receiveCount(),
                    r.replayCount(),
                    r.classification().reason());
        }
        table.print(out);
        out.println();
        out.println(
                shown.size() < records.size()
                        ? "Showing " + shown.size() + " of " + records.size() + " (raise --limit to see more)."
                        : records.size() + " dead letter(s).");
        out.flush();
    }

    private void printGroups(PrintWriter out, List<FailureGroups.Group> groups, int total) {
        List<FailureGroups.Group> shown = groups.subList(0, Math.min(limit, groups.size()));
        if (json) {
            ArrayNode array = Json.array();
            for (FailureGroups.Group g : shown) {
                ObjectNode n = array.addObject();
                n.put("errorType", g.errorType());
                n.put("reason", g.reason());
                n.put("count", g.count());
                ArrayNode classes = n.putArray("classes");
                g.classes().forEach(c -> classes.add(c.name()));
                n.put("firstSeen", Json.instant(g.firstSeen()));
                n.put("lastSeen", Json.instant(g.lastSeen()));
                n.put("sampleId", g.sampleId());
            }
            Json.print(out, array);
            return;
        }
        if (noneMatch(out, shown)) {
            return;
        }
        Table table = new Table(
                List.of("COUNT", "CLASS", "ERROR TYPE", "FIRST SEEN", "LAST SEEN", "SAMPLE ID", "REASON"),
                0,
                0,
                24,
                0,
                0,
                0,
                70);
        for (FailureGroups.Group g : shown) {
            table.row(
                    g.count(),
                    String.join("|", g.classes().stream().map(Enum::name).toList()),
                    g.errorType(),
                    Durations.at(g.firstSeen()),
                    Durations.at(g.lastSeen()),
                    g.sampleId(),
                    g.reason());
        }
        table.print(out);
        out.println();
        out.println(total + " dead letter(s) in " + groups.size() + " group(s)"
                + (shown.size() < groups.size() ? ", showing the " + shown.size() + " largest" : "") + ".");
        out.flush();
    }

    private boolean noneMatch(PrintWriter out, List<?> shown) {
        if (shown.isEmpty()) {
            out.println("No dead letters match (" + RecordFilter.describe(query()) + ").");
            out.flush();
        }
        return shown.isEmpty();
    }

    /** Every match: the rows shown are cut to --limit here, so the total can be told. */
    private QuarantineQuery query() {
        return new QuarantineQuery(
                Optional.ofNullable(queue),
                state == null ? QuarantineQuery.unresolved() : RecordFilter.states(state),
                failureClass == null ? Set.of() : Set.of(failureClass),
                Optional.ofNullable(olderThan),
                Optional.ofNullable(errorType),
                Integer.MAX_VALUE);
    }
}
