package dev.redrive.core.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The difference between a dead letter's payload and an operator's edit of it, compact enough for one audit entry: for
 * JSON payloads, each changed path as a JSON pointer with its old and new value ({@code /amount: 10 → 12; /note:
 * (absent) → "late"}); for anything else, where the text first differs and the changed span. Bounded: each value is cut
 * to {@value #MAX_VALUE_CHARS} characters and the whole diff to {@value #MAX_CHARS}, past which it says how many changes
 * were left out, so an edit of a huge payload never makes its ledger record too large (a DynamoDB item holds 400 KB).
 * The values of sensitive fields never appear (an audit trail is read by whoever opens the dead letter): a change at, or
 * above, a path the consumer's schema marks sensitive shows as {@code [redacted] → [redacted]}, so the trail says what
 * was corrected, not to what. Core keeps no JSON library, so the small reader here parses standard JSON (RFC 8259) for
 * the diff alone.
 */
public final class PayloadDiff {

    /** The longest diff kept, in characters. */
    public static final int MAX_CHARS = 2_000;

    /** The longest value shown in a diff, in characters. */
    public static final int MAX_VALUE_CHARS = 120;

    /** What a diff of two equal payloads says. */
    public static final String NO_CHANGE = "no change";

    /** A sensitive path meaning the whole payload: its sensitive fields cannot be told apart. */
    public static final String WHOLE = "$";

    private static final String ABSENT = "(absent)";
    private static final String MASK = "[redacted]";

    private PayloadDiff() {}

    /** The bounded diff from {@code before} to {@code after}, no field sensitive; {@link #NO_CHANGE} when equal. */
    public static String between(String before, String after) {
        return between(before, after, Set.of());
    }

    /**
     * The bounded diff from {@code before} to {@code after}; {@link #NO_CHANGE} when they are equal.
     *
     * @param sensitive the paths of sensitive fields in either payload, as {@code SchemaGate#sensitivePaths} names them
     *     ({@code $.customer.email}, {@code $.cards[0].pan}); {@link #WHOLE} when they cannot be told apart: then no
     *     value is shown at all
     */
    public static String between(String before, String after, Set<String> sensitive) {
        Objects.requireNonNull(sensitive, "sensitive");
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
        if (before.equals(after)) {
            return NO_CHANGE;
        }
        Object a;
        Object b;
        try {
            a = new Reader(before).document();
            b = new Reader(after).document();
        } catch (IllegalArgumentException notJson) {
            return textDiff(before, after, sensitive.contains(WHOLE));
        }
        List<String> changes = new ArrayList<>();
        diff("", "$", a, b, Set.copyOf(sensitive), changes);
        if (changes.isEmpty()) {
            return "no change but layout (whitespace or key order)";
        }
        return bounded(changes);
    }

    private static String bounded(List<String> changes) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < changes.size(); i++) {
            String next = (i == 0 ? "" : "; ") + changes.get(i);
            int left = changes.size() - i;
            String more = "; … and " + left + " more change" + (left == 1 ? "" : "s");
            if (out.length() + next.length() > MAX_CHARS - more.length() - 8) {
                return out.append(i == 0 ? more.substring(2) : more).toString();
            }
            out.append(next);
        }
        return out.toString();
    }

    private static void diff(
            String path, String dollar, Object a, Object b, Set<String> sensitive, List<String> changes) {
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            Set<Object> keys = new LinkedHashSet<>(ma.keySet());
            keys.addAll(mb.keySet());
            for (Object k : keys) {
                String p = path + "/" + escape((String) k);
                String d = dollar + "." + k;
                if (!mb.containsKey(k)) {
                    changes.add(p + ": " + show(ma.get(k), d, sensitive) + " → " + ABSENT);
                } else if (!ma.containsKey(k)) {
                    changes.add(p + ": " + ABSENT + " → " + show(mb.get(k), d, sensitive));
                } else {
                    diff(p, d, ma.get(k), mb.get(k), sensitive, changes);
                }
            }
            return;
        }
        if (a instanceof List<?> la && b instanceof List<?> lb) {
            for (int i = 0; i < Math.max(la.size(), lb.size()); i++) {
                String p = path + "/" + i;
                String d = dollar + "[" + i + "]";
                if (i >= lb.size()) {
                    changes.add(p + ": " + show(la.get(i), d, sensitive) + " → " + ABSENT);
                } else if (i >= la.size()) {
                    changes.add(p + ": " + ABSENT + " → " + show(lb.get(i), d, sensitive));
                } else {
                    diff(p, d, la.get(i), lb.get(i), sensitive, changes);
                }
            }
            return;
        }
        if (!a.equals(b)) {
            changes.add((path.isEmpty() ? "/" : path) + ": " + show(a, dollar, sensitive) + " → "
                    + show(b, dollar, sensitive));
        }
    }

    /**
     * Whether the value at {@code dollar} is, holds or lies in a sensitive field (or the whole payload's sensitive
     * fields cannot be told apart).
     */
    private static boolean masked(String dollar, Set<String> sensitive) {
        if (sensitive.contains(WHOLE)) {
            return true;
        }
        for (String s : sensitive) {
            if (s.equals(dollar)
                    || dollar.startsWith(s + ".")
                    || dollar.startsWith(s + "[")
                    || s.startsWith(dollar + ".")
                    || s.startsWith(dollar + "[")) {
                return true;
            }
        }
        return false;
    }

    private static String show(Object value, String dollar, Set<String> sensitive) {
        return masked(dollar, sensitive) ? MASK : show(value);
    }

    /** RFC 6901: {@code ~} and {@code /} in a member name. */
    private static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    private static String show(Object value) {
        return cut(render(value));
    }

    private static String cut(String s) {
        return s.length() <= MAX_VALUE_CHARS ? s : s.substring(0, MAX_VALUE_CHARS - 1) + "…";
    }

    private static String render(Object v) {
        if (v instanceof String s) {
            return quote(s);
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder("{");
            m.forEach((k, x) -> b.append(b.length() > 1 ? "," : "")
                    .append(quote((String) k))
                    .append(':')
                    .append(render(x)));
            return b.append('}').toString();
        }
        if (v instanceof List<?> l) {
            StringBuilder b = new StringBuilder("[");
            l.forEach(x -> b.append(b.length() > 1 ? "," : "").append(render(x)));
            return b.append(']').toString();
        }
        return v.toString(); // a Literal: number, true, false, null as written
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** Where two texts first differ, and the changed span of each (common start and end left out). */
    private static String textDiff(String before, String after, boolean hidden) {
        int start = 0;
        while (start < before.length() && start < after.length() && before.charAt(start) == after.charAt(start)) {
            start++;
        }
        int endA = before.length();
        int endB = after.length();
        while (endA > start && endB > start && before.charAt(endA - 1) == after.charAt(endB - 1)) {
            endA--;
            endB--;
        }
        if (hidden) {
            return "text at character " + start
                    + " (values not shown: the payload's sensitive fields cannot be told apart)";
        }
        return "text at character " + start + ": " + cut(quote(before.substring(start, endA))) + " → "
                + cut(quote(after.substring(start, endB)));
    }

    /** A number, true, false or null, compared and shown as written. */
    private record Literal(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** A strict reader of one JSON document: objects (member order kept), arrays, strings, literals. */
    private static final class Reader {
        private static final int MAX_DEPTH = 200;
        private final String s;
        private int i;

        Reader(String s) {
            this.s = s;
        }

        Object document() {
            Object v = value(0);
            space();
            if (i != s.length()) {
                throw new IllegalArgumentException("trailing text at " + i);
            }
            return v;
        }

        private Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("nested too deep");
            }
            space();
            if (i >= s.length()) {
                throw new IllegalArgumentException("ends early");
            }
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                space();
                if (peek('}')) {
                    return m;
                }
                do {
                    space();
                    String k = string();
                    space();
                    expect(':');
                    m.put(k, value(depth + 1));
                    space();
                } while (peek(','));
                expect('}');
                return m;
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                space();
                if (peek(']')) {
                    return l;
                }
                do {
                    l.add(value(depth + 1));
                    space();
                } while (peek(','));
                expect(']');
                return l;
            }
            if (c == '"') {
                return string();
            }
            int from = i;
            while (i < s.length() && "+-0123456789.eEtrufalsn".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            String word = s.substring(from, i);
            if (word.equals("true") || word.equals("false") || word.equals("null") || isNumber(word)) {
                return new Literal(word);
            }
            throw new IllegalArgumentException("not a JSON value at " + from);
        }

        private static boolean isNumber(String w) {
            return w.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw new IllegalArgumentException("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c < 0x20) {
                    throw new IllegalArgumentException("control character in a string");
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (i >= s.length()) {
                    throw new IllegalArgumentException("unterminated escape");
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        if (i + 4 > s.length()) {
                            throw new IllegalArgumentException("short \\u escape");
                        }
                        try {
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        } catch (NumberFormatException bad) {
                            throw new IllegalArgumentException("bad \\u escape", bad);
                        }
                        i += 4;
                    }
                    default -> throw new IllegalArgumentException("bad escape \\" + e);
                }
            }
        }

        private void space() {
            while (i < s.length() && " \t\n\r".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
        }

        private boolean peek(char c) {
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i);
            }
        }
    }
}
