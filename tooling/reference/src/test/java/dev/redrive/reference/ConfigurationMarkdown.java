package dev.redrive.reference;

import java.util.List;

/** Writes a {@link ConfigurationReference} as Markdown. */
final class ConfigurationMarkdown {

    private ConfigurationMarkdown() {}

    /**
     * The reference as Markdown: {@code header}, a table of every property (each linked to its section), then a section
     * per group and in it one per property: its type, default and variable, then its doc comment.
     */
    static String write(List<ConfigurationReference.Group> groups, String header) {
        StringBuilder out = new StringBuilder(header.strip()).append("\n\n");
        out.append(Markdown.header("Property", "Type", "Default", "Environment variable"));
        for (ConfigurationReference.Group g : groups) {
            for (ConfigurationReference.Property p : g.properties()) {
                out.append(Markdown.row(List.of(
                        "[" + Markdown.code(p.name()) + "](#" + Markdown.slug(p.name()) + ")",
                        p.typeText(),
                        p.defaultText(),
                        Markdown.code(p.variable()))));
            }
        }
        for (ConfigurationReference.Group g : groups) {
            out.append(out.charAt(out.length() - 2) == '\n' ? "" : "\n");
            out.append("## ").append(Markdown.code(g.prefix())).append("\n\n");
            if (!g.doc().isEmpty()) {
                out.append(g.doc()).append("\n\n");
            }
            for (ConfigurationReference.Property p : g.properties()) {
                out.append("### ").append(Markdown.code(p.name())).append("\n\n");
                out.append("Type ").append(p.typeText()).append(" · default ").append(p.defaultText());
                out.append(" · environment variable ")
                        .append(Markdown.code(p.variable()))
                        .append("\n\n");
                if (!p.doc().isEmpty()) {
                    out.append(p.doc()).append("\n\n");
                }
            }
        }
        return out.toString().stripTrailing() + "\n";
    }
}
