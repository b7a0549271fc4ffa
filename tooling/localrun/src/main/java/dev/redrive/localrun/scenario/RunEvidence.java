package dev.redrive.localrun.scenario;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.lambda.SandboxExit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a whole-system run that stalled leaves for a reader who has only the build's output (a CI log, where the run's
 * folder is gone): the dead letters recorded and why, each consumer's claims by status, the sandboxes that ended by
 * themselves, and each function log's last lines that say something failed. Read when a wait times out; a part that
 * cannot be read says so and the rest is still given.
 */
final class RunEvidence {

    /** The lines kept from each function log. */
    static final int LOG_LINES = 6;
    /** Longest line or reason kept, in characters. */
    static final int WIDTH = 240;

    private RunEvidence() {}

    static String of(LocalSystem system, Observer observer) {
        StringBuilder b = new StringBuilder("the system at the timeout:\n");
        part(b, "dead letters recorded", () -> deadLetters(observer.ledger()));
        part(b, "claims by status", () -> claims(observer));
        part(
                b,
                "functions (invocations, errors, timeouts, sandbox processes, first invocations)",
                () -> functions(system.runtimeFigures()));
        part(b, "sandboxes that ended by themselves", () -> exits(system.sandboxExits()));
        part(b, "function logs, last lines that report a failure", () -> logs(system.logs()));
        return b.toString();
    }

    private interface Part {
        List<String> lines() throws IOException;
    }

    private static void part(StringBuilder b, String title, Part part) {
        b.append("  ").append(title).append(':');
        try {
            List<String> lines = part.lines();
            if (lines.isEmpty()) {
                b.append(" none\n");
                return;
            }
            b.append('\n');
            lines.forEach(l -> b.append("    ").append(cut(l)).append('\n'));
        } catch (IOException | RuntimeException e) {
            b.append(" could not be read (").append(cut(e.toString())).append(")\n");
        }
    }

    /** One line per consumer, state, class and error type, with how many and the first one's reason. */
    static List<String> deadLetters(List<QuarantineRecord> ledger) {
        Map<String, List<QuarantineRecord>> groups = new TreeMap<>();
        for (QuarantineRecord r : ledger) {
            Classification c = r.evidence().classification();
            groups.computeIfAbsent(
                            r.consumer() + " " + r.state() + " " + c.failureClass() + " " + c.errorType(),
                            k -> new ArrayList<>())
                    .add(r);
        }
        List<String> lines = new ArrayList<>();
        groups.forEach((group, records) -> {
            QuarantineRecord first = records.get(0);
            lines.add(records.size() + " x " + group + ": "
                    + first.evidence().classification().reason() + " (receives "
                    + first.evidence().receiveCount() + ", key " + first.idempotencyKey() + ")");
        });
        return lines;
    }

    private static List<String> claims(Observer observer) {
        List<String> lines = new ArrayList<>();
        for (String consumer : List.of(LocalSystem.EMAIL, LocalSystem.REVENUE)) {
            lines.add(consumer + " " + new TreeMap<>(observer.claims(consumer)));
        }
        return lines;
    }

    static List<String> functions(Map<String, Map<String, Long>> figures) {
        List<String> lines = new ArrayList<>();
        figures.forEach((function, f) -> lines.add(function + ": " + f.get("invocations") + " invocations, "
                + f.get("errors") + " errors, " + f.get("timeouts") + " timeouts, " + f.get("sandboxProcesses")
                + " sandbox processes, first invocation median " + f.get("medianFirstInvocationMs") + " ms, slowest "
                + f.get("slowestFirstInvocationMs") + " ms"));
        return lines;
    }

    private static List<String> exits(List<SandboxExit> exits) {
        List<String> lines = new ArrayList<>();
        for (SandboxExit e : exits) {
            lines.add(e.function() + " sandbox " + e.sandbox() + " in " + e.phase() + ": " + e.reason());
            List<String> tail = e.logTail();
            tail.subList(Math.max(0, tail.size() - 3), tail.size()).forEach(l -> lines.add("  " + l));
        }
        return lines;
    }

    /** Each function log's last {@value #LOG_LINES} lines that are a warning or an error, or a message's failure. */
    static List<String> logs(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return lines;
        }
        List<Path> logs;
        try (Stream<Path> files = Files.list(dir)) {
            logs = files.filter(p -> p.getFileName().toString().endsWith(".log"))
                    .filter(p -> !p.getFileName().toString().equals("progress.log"))
                    .sorted()
                    .toList();
        }
        for (Path log : logs) {
            List<String> failures;
            try (Stream<String> all = Files.lines(log, StandardCharsets.UTF_8)) {
                failures = all.filter(RunEvidence::reportsAFailure).toList();
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            if (!failures.isEmpty()) {
                lines.add(log.getFileName() + " (" + failures.size() + " such lines):");
                failures.subList(Math.max(0, failures.size() - LOG_LINES), failures.size())
                        .forEach(l -> lines.add("  " + l));
            }
        }
        return lines;
    }

    static boolean reportsAFailure(String line) {
        return line.contains(" WARN ")
                || line.contains(" ERROR ")
                || line.contains("message dead-lettered")
                || line.contains("message retries")
                || line.startsWith("Exception")
                || line.startsWith("Caused by");
    }

    private static String cut(String line) {
        return line.length() <= WIDTH ? line : line.substring(0, WIDTH) + "...";
    }
}
