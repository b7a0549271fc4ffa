package dev.redrive.reference;

import com.github.javaparser.javadoc.description.JavadocDescription;
import com.github.javaparser.javadoc.description.JavadocDescriptionElement;
import com.github.javaparser.javadoc.description.JavadocInlineTag;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a doc comment's text as Markdown: {@code {@code x}} and {@code {@literal x}} as code spans, {@code {@link
 * A#b()}} and {@code {@value A#B}} as code spans of the reference ({@code A.b()}, packages left out) unless the
 * {@link Links} given know a better target, {@code <p>} as a paragraph break, {@code <li>} as a list item and {@code
 * <pre>{@code ...}</pre>} as a fenced Java block. Whitespace is collapsed, so the line breaks of the source comment do
 * not matter; a paragraph is one line.
 */
final class JavadocMarkdown {

    /** What a {@code {@link}} or {@code {@value}} points at, as Markdown; empty: the reference as a code span. */
    interface Links {
        Optional<String> markdown(String reference);

        Links NONE = reference -> Optional.empty();
    }

    private static final Pattern TAG =
            Pattern.compile("<(/?)(p|ul|ol|li|pre|code|b|i|em|strong)\\b[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern STRING_LITERAL = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"");
    private static final Pattern PACKAGES = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+(?=[A-Z])");

    private final Links links;
    private final List<String> blocks = new ArrayList<>();
    private StringBuilder paragraph = new StringBuilder();
    private boolean listItem;
    private boolean inPre;
    private boolean inCode;

    private JavadocMarkdown(Links links) {
        this.links = links;
    }

    /** The Markdown of {@code description}: blocks separated by a blank line, list items by a line break. */
    static String render(JavadocDescription description, Links links) {
        JavadocMarkdown out = new JavadocMarkdown(links);
        for (JavadocDescriptionElement element : description.getElements()) {
            if (element instanceof JavadocInlineTag tag) {
                out.tag(tag);
            } else {
                out.text(element.toText());
            }
        }
        out.flush();
        return out.joined();
    }

    /** {@code description} as one line, for a table cell: paragraphs and list items split by {@code <br>}. */
    static String renderInline(JavadocDescription description, Links links) {
        return Markdown.cell(render(description, links));
    }

    /** A reference ({@code dev.redrive.x.A#b(int)}) as Javadoc shows it: {@code A.b(int)}, {@code #b()} as {@code b()}. */
    static String simpleReference(String reference) {
        String r = PACKAGES.matcher(reference.strip()).replaceAll("");
        return r.startsWith("#") ? r.substring(1) : r.replace('#', '.');
    }

    /**
     * Java source text with package qualifiers left out ({@code java.time.Duration} is {@code Duration}); string
     * literals are kept as they are.
     */
    static String withoutPackages(String source) {
        StringBuilder out = new StringBuilder();
        Matcher literal = STRING_LITERAL.matcher(source);
        int at = 0;
        while (literal.find()) {
            out.append(PACKAGES.matcher(source.substring(at, literal.start())).replaceAll(""));
            out.append(literal.group());
            at = literal.end();
        }
        return out.append(PACKAGES.matcher(source.substring(at)).replaceAll("")).toString();
    }

    private void tag(JavadocInlineTag tag) {
        String content = tag.getContent();
        switch (tag.getType()) {
            case CODE, LITERAL -> {
                if (inPre) {
                    flush();
                    String body =
                            content.replaceFirst("^\\s*\n", "").stripTrailing().stripIndent();
                    String language = body.startsWith("<") ? "xml" : "java";
                    blocks.add("```" + language + "\n" + body + "\n```");
                } else {
                    paragraph.append(Markdown.code(content));
                }
            }
            case LINK, LINKPLAIN -> paragraph.append(link(content));
            case VALUE ->
                paragraph.append(links.markdown(content.strip()).orElse(Markdown.code(simpleReference(content))));
            default -> paragraph.append(escape(content.strip()));
        }
    }

    /** {@code {@link A#b() label}}: the label if there is one, else the reference. */
    private String link(String content) {
        String c = content.strip();
        int space = labelStart(c);
        String reference = space < 0 ? c : c.substring(0, space);
        Optional<String> known = links.markdown(reference);
        if (space >= 0) {
            return escape(c.substring(space + 1).strip());
        }
        return known.orElse(Markdown.code(simpleReference(reference)));
    }

    /** Where a link's label starts: the first space outside the reference's parentheses. */
    private static int labelStart(String content) {
        int depth = 0;
        for (int i = 0; i < content.length(); i++) {
            char c = content.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (Character.isWhitespace(c) && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private void text(String text) {
        Matcher m = TAG.matcher(text);
        int at = 0;
        while (m.find()) {
            appendText(text.substring(at, m.start()));
            html(m.group(1).isEmpty(), m.group(2).toLowerCase(java.util.Locale.ROOT));
            at = m.end();
        }
        appendText(text.substring(at));
    }

    private void appendText(String text) {
        if (!inPre) {
            paragraph.append(inCode ? text : escape(text));
        }
    }

    private void html(boolean opening, String tag) {
        switch (tag) {
            case "p", "ul", "ol" -> {
                flush();
                listItem = false;
            }
            case "li" -> {
                flush();
                listItem = opening;
            }
            case "pre" -> {
                flush();
                inPre = opening;
            }
            case "code" -> {
                paragraph.append('`');
                inCode = opening;
            }
            default -> paragraph.append(tag.equals("b") || tag.equals("strong") ? "**" : "*");
        }
    }

    private void flush() {
        String text = paragraph.toString().replaceAll("\\s+", " ").strip();
        if (!text.isEmpty()) {
            blocks.add(listItem ? "- " + text : text);
        }
        paragraph = new StringBuilder();
    }

    private String joined() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            if (i > 0) {
                boolean list =
                        blocks.get(i).startsWith("- ") && blocks.get(i - 1).startsWith("- ");
                out.append(list ? "\n" : "\n\n");
            }
            out.append(blocks.get(i));
        }
        return out.toString();
    }

    /** Prose as Markdown text: what Markdown would read as emphasis or HTML is escaped. */
    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("*", "\\*").replace("<", "&lt;");
    }
}
