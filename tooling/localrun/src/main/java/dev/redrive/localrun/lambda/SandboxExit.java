package dev.redrive.localrun.lambda;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sandbox process that ended without being asked to: how (exit code or signal), when (during init, before its
 * first poll of the Runtime API, or while handling an invocation), and the last lines of its log.
 *
 * @param function the function's handler name
 * @param sandbox  the sandbox's number within its function
 * @param phase    {@code init} or {@code invoke}
 * @param exitCode the process's exit value (128 + n when signal n ended it)
 * @param at       when it was seen to end
 * @param log      the sandbox's log file
 * @param logTail  its last lines
 */
public record SandboxExit(
        String function, int sandbox, String phase, int exitCode, Instant at, Path log, List<String> logTail) {

    static final int TAIL_LINES = 15;

    /** "exit code 3" or "signal 7 (SIGBUS)". */
    public String reason() {
        if (exitCode > 128 && exitCode < 128 + 65) {
            int signal = exitCode - 128;
            return "signal " + signal + signalName(signal);
        }
        return "exit code " + exitCode;
    }

    /** One line for a status or an error message. */
    public String describe() {
        return function + " sandbox " + sandbox + " ended during " + phase + " (" + reason() + "); see " + log;
    }

    /** The report's view of it. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("function", function);
        m.put("sandbox", sandbox);
        m.put("phase", phase);
        m.put("reason", reason());
        m.put("at", at.toString());
        m.put("log", log.toString());
        m.put("logTail", logTail);
        return m;
    }

    static List<String> tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return List.copyOf(lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException | RuntimeException e) {
            return List.of("(log unreadable: " + e.getMessage() + ")");
        }
    }

    private static String signalName(int signal) {
        return switch (signal) {
            case 4 -> " (SIGILL)";
            case 6 -> " (SIGABRT)";
            case 7 -> " (SIGBUS)";
            case 9 -> " (SIGKILL)";
            case 11 -> " (SIGSEGV)";
            case 15 -> " (SIGTERM)";
            default -> "";
        };
    }
}
