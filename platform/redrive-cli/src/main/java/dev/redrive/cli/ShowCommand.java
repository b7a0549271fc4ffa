package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.schema.PayloadRedactor;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code redrive show ID}: one dead letter in full, its sensitive fields redacted unless revealed. */
@Command(
        name = "show",
        header = "Show one dead letter in full, sensitive fields redacted.",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = {
            "Show one dead letter: state, classification, failure history (first and last failed, receive count, "
                    + "replay count), message attributes, the payload pretty-printed, and the audit trail.",
            "Fields the payload's JSON Schema marks \"x-sensitive\": true (chosen by the payload's eventType and "
                    + "version) are redacted; --reveal shows them, says so, and records in the dead letter's audit "
                    + "trail who was shown which fields (the console's reveal writes the same entry)."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  redrive show q-3f2a9c41d0b7e65a18c4f2d1",
            "  redrive show q-3f2a9c41d0b7e65a18c4f2d1 --reveal --actor ada",
            "  redrive show q-3f2a9c41d0b7e65a18c4f2d1 --json"
        })
final class ShowCommand implements Callable<Integer> {

    @ParentCommand
    RedriveCli root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The dead letter's quarantine id (see redrive list).")
    String id;

    @Option(
            names = "--reveal",
            order = 1,
            description = "Show the sensitive fields too (the output says that they were revealed, and to whom; the "
                    + "audit trail records it).")
    boolean reveal;

    @Option(names = "--json", order = 2, description = "Machine output: one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        Backend backend = root.backend();
        QuarantineRecord r = Targets.require(backend, id);
        Instant now = root.context().clock().instant();
        String body = backend.operator().payload(r).orElse(null);
        PayloadRedactor.Redaction payload =
                body == null ? null : new PayloadRedactor(backend.schemas()).redact(body, reveal);
        List<String> secretAttributes =
                PayloadRedactor.secretAttributePaths(r.attributes().keySet());
        String revealedTo = null;
        if (reveal && (payload != null || !secretAttributes.isEmpty())) {
            // Recorded before it is shown: a reveal that cannot be recorded shows nothing.
            revealedTo = root.actor().name();
            List<String> shown = new ArrayList<>(payload == null ? List.of() : payload.sensitive());
            shown.addAll(secretAttributes);
            r = backend.operator().recordReveal(r.id(), root.actor(), shown);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Json.print(out, json(r, now, payload, revealedTo));
        } else {
            text(out, r, now, payload, revealedTo);
        }
        if (revealedTo != null) {
            spec.commandLine()
                    .getErr()
                    .println("redrive show: sensitive fields of " + r.id() + " were revealed to " + revealedTo);
            spec.commandLine().getErr().flush();
        }
        return ExitCodes.OK;
    }

    private void text(
            PrintWriter out, QuarantineRecord r, Instant now, PayloadRedactor.Redaction payload, String revealedTo) {
        out.println("Dead letter " + r.id());
        field(out, "state", r.state() + (r.note().isEmpty() ? "" : "  (" + r.note() + ")"));
        field(out, "consumer", r.consumer());
        field(out, "source queue", r.sourceQueue());
        field(out, "dead-letter queue", r.deadLetterQueue());
        field(out, "idempotency key", r.idempotencyKey() == null ? "(none could be read)" : r.idempotencyKey());
        field(out, "source message id", r.sourceMessageId());
        out.println();
        out.println("Classification");
        field(out, "class", r.classification().failureClass());
        field(out, "error type", r.classification().errorType());
        field(
                out,
                "dependency",
                r.classification().dependency() == null
                        ? "-"
                        : r.classification().dependency());
        field(out, "reason", r.classification().reason());
        out.println();
        out.println("Failure history");
        field(out, "first failed", when(r.firstFailedAt(), now));
        field(out, "last failed", when(r.lastFailedAt(), now));
        field(out, "arrived", when(r.arrivedAt(), now));
        field(out, "receive count", r.receiveCount());
        field(out, "replay count", r.replayCount());
        out.println();
        out.println("Attributes");
        if (r.attributes().isEmpty()) {
            out.println("  (none)");
        }
        boolean revealed = revealedTo != null;
        new TreeMap<>(r.attributes())
                .forEach((k, v) -> field(
                        out,
                        k,
                        v.dataType().equals("String")
                                ? text(k, v, revealed)
                                : text(k, v, revealed) + " (" + v.dataType() + ")"));
        out.println();
        payload(out, r, payload, revealedTo);
        out.println();
        out.println("Audit trail");
        Table trail = new Table(List.of("AT", "FROM", "TO", "ACTOR", "WHY"), 0, 0, 0, 60, 0);
        for (AuditEntry a : r.audit()) {
            trail.row(
                    Durations.at(a.at()),
                    a.from() == null ? "-" : a.from(),
                    a.to(),
                    a.actor().name(),
                    a.reason());
        }
        trail.print(out, "  ");
        out.flush();
    }

    private void payload(PrintWriter out, QuarantineRecord r, PayloadRedactor.Redaction payload, String revealedTo) {
        if (payload == null) {
            out.println("Payload");
            out.println(
                    r.archiveRef() != null
                            ? "  archived to " + r.archiveRef() + " in bucket '"
                                    + root.backend().settings().archiveBucket()
                                    + "' (the ledger keeps a tombstone only)"
                            : "  (none stored)");
            return;
        }
        if (revealedTo != null) {
            out.println(
                    "Payload (" + payload.basis() + "; REVEALED to " + revealedTo + ": sensitive fields are shown)");
        } else if (payload.withheld()) {
            out.println("Payload (" + payload.basis() + "; --reveal shows it)");
            return;
        } else {
            out.println("Payload (" + payload.basis() + "; "
                    + (payload.redacted().isEmpty()
                            ? "no sensitive fields present"
                            : "redacted " + String.join(", ", payload.redacted()) + "; --reveal shows "
                                    + (payload.redacted().size() == 1 ? "it" : "them"))
                    + ")");
        }
        payload.shown().lines().forEach(l -> out.println("  " + l));
    }

    private static ObjectNode json(
            QuarantineRecord r, Instant now, PayloadRedactor.Redaction payload, String revealedTo) {
        ObjectNode n = Json.summary(r, now);
        n.put("idempotencyKey", r.idempotencyKey());
        n.put("sourceMessageId", r.sourceMessageId());
        ObjectNode attributes = n.putObject("attributes");
        ObjectNode types = n.putObject("attributeTypes");
        new TreeMap<>(r.attributes()).forEach((k, v) -> {
            attributes.put(k, text(k, v, revealedTo != null));
            types.put(k, v.dataType());
        });
        n.put("archiveRef", r.archiveRef());
        ObjectNode p = n.putObject("payload");
        if (payload != null) {
            payload.payload().ifPresent(body -> p.set("body", body));
            payload.text().ifPresent(text -> p.put("text", text));
            p.put("basis", payload.basis());
            p.put("withheld", payload.withheld());
            ArrayNode redacted = p.putArray("redacted");
            payload.redacted().forEach(redacted::add);
            ArrayNode sensitive = p.putArray("sensitive");
            payload.sensitive().forEach(sensitive::add);
            p.put("revealedTo", revealedTo);
        }
        n.set("audit", Json.audit(r));
        return n;
    }

    /**
     * An attribute's value as text: a String's or Number's own, a Binary's in base64; redacted when its name looks
     * secret ({@link PayloadRedactor#secretAttribute}) unless revealed.
     */
    private static String text(String name, MessageAttribute a, boolean revealed) {
        if (!revealed && PayloadRedactor.secretAttribute(name)) {
            return PayloadRedactor.MASK;
        }
        return a.binaryValue() == null ? a.stringValue() : Base64.getEncoder().encodeToString(a.binaryValue());
    }

    private static void field(PrintWriter out, String name, Object value) {
        out.println("  " + String.format("%-18s", name) + " " + value);
    }

    private static String when(Instant at, Instant now) {
        if (at == null) {
            return "(not recorded)";
        }
        Duration ago = Duration.between(at, now);
        return Durations.at(at) + " (" + Durations.format(ago) + " ago)";
    }
}
