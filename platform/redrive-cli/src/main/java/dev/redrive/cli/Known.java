package dev.redrive.cli;

import dev.redrive.aws.queues.QueueAddress;
import dev.redrive.core.operator.QuarantineQuery;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.schema.DeclaredRoute;
import dev.redrive.schema.RoutesDocument;
import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The names an operator may give that the CLI can check, learnt from what it reads anyway: the routes document
 * ({@code REDRIVE_ROUTES}: consumers, source queues, dead-letter queues, breakers), the quarantine ledger (the queues and
 * the dependencies its dead letters name), the shared breakers and the maintenance windows. A name that is none of them
 * is a usage error from {@link Suggestions}. The ledger is read for this only when the cheap sources do not know the
 * name, so a correct name costs nothing extra.
 */
final class Known {

    private Known() {}

    /** The routes document if one is configured: listing and archiving work without one. */
    static Optional<RoutesDocument> routes(Backend backend) {
        try {
            return Optional.of(backend.routesDocument());
        } catch (CliException notConfigured) {
            return Optional.empty();
        }
    }

    /**
     * The source queue an operator means by {@code typed}: itself, or, for a route's dead-letter queue (the name an
     * alarm or the console shows), that route's source queue, said on stderr. Dead letters are filed under their source
     * queue, so that is what an on-call engineer giving the DLQ's name is after.
     */
    static String sourceQueue(Backend backend, String typed, PrintWriter err, String command) {
        for (DeclaredRoute r : routes(backend).map(RoutesDocument::routes).orElse(java.util.List.of())) {
            if (QueueAddress.nameOf(r.sourceQueue()).equals(typed)) {
                return typed;
            }
        }
        for (DeclaredRoute r : routes(backend).map(RoutesDocument::routes).orElse(java.util.List.of())) {
            if (QueueAddress.nameOf(r.deadLetterQueue()).equals(typed)) {
                String source = QueueAddress.nameOf(r.sourceQueue());
                err.println(command + ": " + typed + " is the dead-letter queue of " + source + " (route "
                        + r.consumer() + "); dead letters are filed under their source queue, so these are "
                        + source + "'s");
                err.flush();
                return source;
            }
        }
        return typed;
    }

    /**
     * Nothing matched a query for {@code queue}: that is an answer only if the queue exists (a route's source queue, or
     * one the ledger holds dead letters of); otherwise a usage error that says "did you mean" and names the known
     * queues.
     */
    static void requireQueue(Backend backend, String queue) {
        Set<String> known = new TreeSet<>();
        routes(backend).ifPresent(d -> d.routes().forEach(r -> known.add(QueueAddress.nameOf(r.sourceQueue()))));
        if (known.contains(queue)) {
            return;
        }
        if (!backend.operator()
                .list(new QuarantineQuery(
                        Optional.of(queue),
                        EnumSet.allOf(QuarantineState.class),
                        Set.of(),
                        Optional.empty(),
                        Optional.empty(),
                        1))
                .isEmpty()) {
            return;
        }
        Map<String, String> sourceOfDlq = new LinkedHashMap<>();
        for (QuarantineRecord r : everything(backend)) {
            known.add(r.sourceQueue());
            sourceOfDlq.putIfAbsent(r.deadLetterQueue(), r.sourceQueue());
        }
        if (sourceOfDlq.containsKey(queue)) {
            throw CliException.usage(queue + " is a dead-letter queue; its dead letters are filed under their source "
                    + "queue: give " + sourceOfDlq.get(queue));
        }
        throw Suggestions.unknown(
                "queue", queue, known, "source queues of " + Settings.ROUTES + " and of the quarantine ledger");
    }

    /**
     * The error for a queue SQS does not have ({@code stats --queue}, {@code backoff --queue} look at any queue): a usage
     * error naming the routes' source queues.
     */
    static CliException noSuchQueue(Backend backend, String queue) {
        Set<String> known = new TreeSet<>();
        routes(backend).ifPresent(d -> d.routes().forEach(r -> known.add(QueueAddress.nameOf(r.sourceQueue()))));
        return Suggestions.unknown(
                "queue", queue, known, "SQS has no queue by this name; the source queues of " + Settings.ROUTES);
    }

    private static java.util.List<QuarantineRecord> everything(Backend backend) {
        return backend.operator()
                .list(new QuarantineQuery(
                        Optional.empty(),
                        EnumSet.allOf(QuarantineState.class),
                        Set.of(),
                        Optional.empty(),
                        Optional.empty(),
                        Integer.MAX_VALUE));
    }
}
