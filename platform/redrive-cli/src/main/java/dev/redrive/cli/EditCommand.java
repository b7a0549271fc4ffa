package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.operator.EditedReplay;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.replay.EditCheck;
import dev.redrive.core.replay.ReplayOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code redrive edit}: correct a dead letter's payload and replay the corrected one (edit and retry). */
@Command(
        name = "edit",
        header = "Correct a dead letter's payload and replay the corrected one (edit and retry).",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = {
            "Replay one dead letter with a corrected payload read from a file (or '-' for standard input), through "
                    + "the same checks, pacing, attributes and replay marker as redrive replay.",
            "First the edit is checked: it must pass the consumer's current schema as written (not through an "
                    + "upcaster: it is sent as written), and keep the original's idempotency key. An edit that fails "
                    + "either is refused with the reason and nothing changes. Then the idempotency check: one already "
                    + "applied is marked REPLAYED and nothing is sent.",
            "The dead letter keeps its original payload; the audit entry that settles it carries your name, the "
                    + "reason and the diff (changed paths with old -> new values, at most 2,000 characters). Run "
                    + "with --dry-run first to see the checks' answers and the diff."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  redrive show q-3f2a9c41d0b7e65a18c4f2d1 --reveal --json | jq .payload.body > fixed.json",
            "  redrive edit q-3f2a9c41d0b7e65a18c4f2d1 --payload fixed.json --dry-run",
            "  redrive edit q-3f2a9c41d0b7e65a18c4f2d1 --payload fixed.json --reason 'currency was lower case; T-42'"
        })
final class EditCommand implements Callable<Integer> {

    @ParentCommand
    RedriveCli root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The quarantine id of the dead letter to correct.")
    String id;

    @Option(
            names = "--payload",
            paramLabel = "FILE",
            required = true,
            order = 1,
            description = "The corrected payload, as it is to be sent: a file, or '-' for standard input.")
    String payloadFile;

    @Option(
            names = "--reason",
            paramLabel = "TEXT",
            order = 2,
            description = "What was corrected and why (required unless --dry-run), written into the audit trail.")
    String reason;

    @Option(
            names = "--dry-run",
            order = 3,
            description = "Run the checks and say what would happen, with the diff; change and send nothing.")
    boolean dryRun;

    @Option(names = "--json", order = 4, description = "Machine output: one JSON line.")
    boolean json;

    @Override
    public Integer call() {
        if (!dryRun && (reason == null || reason.isBlank())) {
            throw CliException.usage("--reason must say what was corrected and why (or use --dry-run)");
        }
        String edited = readPayload();
        Backend backend = root.backend();
        QuarantineRecord record = Targets.require(backend, id);
        backend.routes(); // the routes are read before anything is replayed: a bad value stops the run first
        ReplayCommand.refuseUndeclared(backend, List.of(record));
        Actor actor = dryRun ? null : root.actor();
        EditedReplay result = backend.operator().replayEdited(record.id(), edited, actor, reason, dryRun);
        PrintWriter out = spec.commandLine().getOut();
        ReplayOutcome outcome = result.outcome();
        if (json) {
            ObjectNode n = Json.object();
            n.put("id", record.id());
            n.put("outcome", outcome.getClass().getSimpleName());
            n.put("dryRun", dryRun);
            n.put("description", outcome.describe());
            result.checks().ifPresent(c -> {
                n.put("schema", c.schema());
                n.put("key", c.key());
                n.put("diff", c.diff());
            });
            Json.printLine(out, n);
        } else {
            result.checks().ifPresent(c -> print(out, c));
            out.println(String.format("%-26s  %s", record.id(), outcome.describe()));
            out.flush();
        }
        return outcome instanceof ReplayOutcome.Sent || outcome instanceof ReplayOutcome.AlreadyApplied
                ? ExitCodes.OK
                : ExitCodes.PARTIAL;
    }

    private static void print(PrintWriter out, EditCheck c) {
        out.println("schema  " + c.schema());
        out.println("key     " + c.key());
        out.println("diff    " + (c.diff().isEmpty() ? "(the original cannot be read)" : c.diff()));
    }

    private String readPayload() {
        try {
            if (payloadFile.equals("-")) {
                InputStream in = System.in; // the standard input, as the operator piped it
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            return Files.readString(Path.of(payloadFile), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw CliException.usage("--payload: no file '" + payloadFile + "'");
        } catch (IOException e) {
            throw CliException.usage("--payload: cannot read '" + payloadFile + "': " + e.getMessage());
        }
    }
}
