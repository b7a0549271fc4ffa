package dev.redrive.core.names;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The one way a name that is not known (a queue, a dependency, a state, a command) is answered, whatever the interface:
 * "unknown dependency 'x': did you mean 'y'? Known: a, b (from where)" — the known names within a small edit distance
 * (Damerau-Levenshtein, adjacent transpositions counted once), then what is known. Never "nothing there".
 */
public final class UnknownName {

    /** At most this many known names are listed in a message. */
    public static final int LISTED = 12;

    private UnknownName() {}

    /**
     * The known names closest to {@code typed}, closest first: within 1 edit for names up to 4 characters, 2 up to 8,
     * else 3 (case is ignored).
     */
    public static List<String> closest(String typed, Collection<String> known) {
        String t = typed.toLowerCase(Locale.ROOT);
        int allowed = t.length() <= 4 ? 1 : t.length() <= 8 ? 2 : 3;
        List<String> near = new ArrayList<>();
        int best = Integer.MAX_VALUE;
        for (String k : new TreeSet<>(known)) {
            int d = distance(t, k.toLowerCase(Locale.ROOT));
            if (d > allowed || d > best) {
                continue;
            }
            if (d < best) {
                near.clear();
                best = d;
            }
            near.add(k);
        }
        return near;
    }

    /**
     * The message for a {@code what} ("queue", "dependency") named {@code typed} that is not among {@code known}:
     * "unknown queue 'x': did you mean 'y'? Known: a, b (from where)".
     */
    public static String message(String what, String typed, Collection<String> known, String from) {
        StringBuilder m = new StringBuilder("unknown ")
                .append(what)
                .append(" '")
                .append(typed)
                .append("'");
        List<String> near = closest(typed, known);
        if (!near.isEmpty()) {
            m.append(": did you mean ").append(quoted(near)).append('?');
        }
        m.append(near.isEmpty() ? ": " : " ");
        if (known.isEmpty()) {
            m.append("no ").append(what).append(" is known");
        } else {
            List<String> sorted = new ArrayList<>(new TreeSet<>(known));
            m.append("Known: ").append(String.join(", ", sorted.subList(0, Math.min(LISTED, sorted.size()))));
            if (sorted.size() > LISTED) {
                m.append(" and ").append(sorted.size() - LISTED).append(" more");
            }
        }
        if (from != null && !from.isBlank()) {
            m.append(" (").append(from).append(')');
        }
        return m.toString();
    }

    /** "did you mean ..." for {@code typed} among {@code known}, or empty. */
    public static String didYouMean(String typed, Collection<String> known) {
        List<String> near = closest(typed, known);
        return near.isEmpty() ? "" : "did you mean " + quoted(near) + "?";
    }

    private static String quoted(List<String> names) {
        return String.join(
                " or ",
                names.stream()
                        .sorted(Comparator.naturalOrder())
                        .map(n -> "'" + n + "'")
                        .toList());
    }

    /** The optimal-string-alignment distance: insertions, deletions, substitutions, adjacent transpositions. */
    public static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
