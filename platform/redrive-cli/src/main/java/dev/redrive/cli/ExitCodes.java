package dev.redrive.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The exit codes of every command, listed in each command's {@code --help}. */
public final class ExitCodes {

    /** Everything asked for was done (or, in a dry run, would be). */
    public static final int OK = 0;
    /**
     * The command ran, but some dead letters were not replayed or archived by it (refused, deferred, conflict, or already
     * resolved: REPLAYED or ARCHIVED before).
     */
    public static final int PARTIAL = 1;
    /**
     * A bad argument: an unknown option, command, id, queue, dependency, state or class (with "did you mean"), a
     * malformed filter or duration, a POISON or PERMANENT replay without --allow-class.
     */
    public static final int USAGE = 2;
    /** Configuration or AWS: a missing table, queue, region or credentials, or an AWS error. */
    public static final int CONFIG = 3;
    /** An unexpected error (a bug in Redrive): the message names it; please report it. */
    public static final int INTERNAL = 4;
    /** Stopped by the operator (Ctrl-C) between two messages; the same command resumes. */
    public static final int INTERRUPTED = 130;

    /** The exit codes as every command's {@code --help} lists them. */
    public static final Map<String, String> LIST = list();

    private ExitCodes() {}

    private static Map<String, String> list() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put("0", "done (or, with --dry-run, would be done)");
        codes.put("1", "done, but some dead letters were refused, deferred, in conflict or already resolved");
        codes.put(
                "2",
                "bad arguments (unknown option, command, id, queue, dependency, state, class; malformed filter, "
                        + "duration or time; POISON or PERMANENT without --allow-class)");
        codes.put("3", "configuration or AWS error (missing table, queue, region, credentials)");
        codes.put("4", "unexpected error (a bug: please report it with the message)");
        codes.put("130", "stopped by Ctrl-C between two messages; run the same command again to resume");
        return Collections.unmodifiableMap(codes);
    }
}
