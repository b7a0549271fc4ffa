package dev.redrive.cli;

import dev.redrive.core.names.UnknownName;
import java.util.Collection;
import java.util.List;

/**
 * The one place the CLI answers a name it does not know: a queue, dependency, state, class, command or option that is
 * not there is a usage error ({@link ExitCodes#USAGE}) that says "did you mean" (the known names within a small edit
 * distance, core's {@link UnknownName}) and names what is known. Never "nothing there".
 */
final class Suggestions {

    /** At most this many known names are listed in an error. */
    static final int LISTED = UnknownName.LISTED;

    private Suggestions() {}

    /** Core's {@link UnknownName#closest}. */
    static List<String> closest(String typed, Collection<String> known) {
        return UnknownName.closest(typed, known);
    }

    /**
     * The error for a {@code what} ("queue", "dependency") named {@code typed} that is not among {@code known}: "unknown
     * queue 'x': did you mean 'y'? Known: a, b (from where)".
     */
    static CliException unknown(String what, String typed, Collection<String> known, String from) {
        return CliException.usage(message(what, typed, known, from));
    }

    /** The text of {@link #unknown}: core's {@link UnknownName#message}. */
    static String message(String what, String typed, Collection<String> known, String from) {
        return UnknownName.message(what, typed, known, from);
    }

    /** "did you mean ..." for {@code typed} among {@code known}, or empty. */
    static String didYouMean(String typed, Collection<String> known) {
        return UnknownName.didYouMean(typed, known);
    }

    /** The optimal-string-alignment distance: insertions, deletions, substitutions, adjacent transpositions. */
    static int distance(String a, String b) {
        return UnknownName.distance(a, b);
    }
}
