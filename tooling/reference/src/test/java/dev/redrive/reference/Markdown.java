package dev.redrive.reference;

import java.util.List;
import java.util.Locale;

/** What the references write Markdown with: code spans, table rows and cells, heading anchors. */
final class Markdown {

    private Markdown() {}

    /** {@code text} as a code span, whatever backticks it holds; whitespace collapsed. */
    static String code(String text) {
        String t = text.strip().replaceAll("\\s+", " ");
        return t.contains("`") ? "`` " + t + " ``" : "`" + t + "`";
    }

    /** Markdown as one table cell: line breaks as {@code <br>}, pipes escaped. */
    static String cell(String markdown) {
        return markdown.strip().replace("|", "\\|").replace("\n", "<br>");
    }

    /** A table row of {@code cells}, each already a cell ({@link #cell}). */
    static String row(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }

    /** A table's header row and its delimiter row. */
    static String header(String... titles) {
        return row(List.of(titles))
                + row(List.of(titles).stream().map(t -> "---").toList());
    }

    /**
     * GitHub's anchor of a heading whose text is {@code text} (code spans count by their content): lower case,
     * punctuation and symbols dropped but {@code -} and {@code _}, each space a {@code -}; MarkdownLinksTest checks
     * links by the same rule.
     */
    static String slug(String text) {
        StringBuilder out = new StringBuilder();
        text.strip().toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (c == ' ') {
                out.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
