package dev.redrive.core.failure;

/**
 * Text made safe to write where a person reads it: a log line, a terminal, the ledger. Every character that could
 * break a line, move the cursor, reorder what is shown or is no character at all is written as an escape instead:
 * {@code \\n}, {@code \\r}, {@code \\t}, and {@code \\uXXXX} for the other control characters, format characters
 * (U+200E, U+202E, ...), the line and paragraph separators, lone surrogates and the non-characters U+FFFE/U+FFFF. A
 * backslash stays a backslash: the escapes are for reading, not for decoding back.
 */
public final class Printable {

    private Printable() {}

    /** {@code text} with every unsafe character escaped; null stays null. */
    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (pair) {
                if (out != null) {
                    out.append(c).append(text.charAt(i + 1));
                }
                i++;
                continue;
            }
            if (!unsafe(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out == null ? text : out.toString();
    }

    /**
     * What {@code e} is, for an outcome or a log line: its type and its message, escaped. For failures of stores and
     * clients, whose messages name what failed; never for a parser's, whose message may quote the payload.
     */
    public static String thrown(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank()
                ? e.getClass().getName()
                : e.getClass().getSimpleName() + ": " + escape(message);
    }

    private static boolean unsafe(char c) {
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || Character.isSurrogate(c) || c == 0xfffe || c == 0xffff) {
            return true;
        }
        int type = Character.getType(c);
        return type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }
}
