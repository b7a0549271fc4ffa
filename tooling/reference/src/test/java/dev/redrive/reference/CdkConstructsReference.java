package dev.redrive.reference;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The reference of {@code redrive-cdk}'s public constructs and of their props and settings ({@link CdkSources} says
 * which), generated from their sources: a section per type ({@link TypeSection}), the constructs first. A doc comment's
 * {@code {@link}} to a type with a section links to it.
 */
final class CdkConstructsReference {

    /** Where the constructs' sources are, from the repository's root. */
    static final Path SOURCES = Path.of("platform/redrive-cdk/src/main/java");

    private final List<CdkSources.Source> constructs;
    private final List<CdkSources.Source> settings;
    private final Set<String> sectioned;
    private final TypeSection sections;

    CdkConstructsReference(Path sourceRoot) {
        CdkSources sources = new CdkSources(sourceRoot);
        this.constructs = sources.constructs();
        this.settings = sources.settings();
        this.sectioned = Stream.concat(constructs.stream(), settings.stream())
                .map(CdkSources.Source::name)
                .collect(Collectors.toUnmodifiableSet());
        JavadocMarkdown.Links links = this::link;
        this.sections = new TypeSection(sources, new PropertyRows(sources, sectioned::contains, links), links);
    }

    /** The constructs, in the order of their sections. */
    List<String> constructs() {
        return constructs.stream().map(CdkSources.Source::name).toList();
    }

    /** The props and settings, in the order of their sections. */
    List<String> settings() {
        return settings.stream().map(CdkSources.Source::name).toList();
    }

    /** {@code header}, the contents, then the constructs' sections and the props' and settings'. */
    String markdown(String header) {
        StringBuilder out = new StringBuilder(header.strip()).append("\n\n");
        out.append("- **Constructs**: ").append(contents(constructs)).append('\n');
        out.append("- **Props and settings**: ").append(contents(settings)).append("\n\n");
        out.append("## Constructs\n\n");
        constructs.forEach(c -> out.append(sections.render(c)));
        out.append("## Props and settings\n\n");
        settings.forEach(s -> out.append(sections.render(s)));
        return out.toString().stripTrailing() + "\n";
    }

    private static String contents(List<CdkSources.Source> types) {
        return types.stream()
                .map(t -> "[" + t.name() + "](#" + Markdown.slug(t.name()) + ")")
                .collect(Collectors.joining(", "));
    }

    /** A link to the section of the type {@code reference} names ({@code A}, {@code A#b()}, {@code A.B}). */
    private Optional<String> link(String reference) {
        String type = JavadocMarkdown.withoutPackages(reference).split("[#.(]", 2)[0];
        if (!sectioned.contains(type)) {
            return Optional.empty();
        }
        return Optional.of(
                "[" + Markdown.code(JavadocMarkdown.simpleReference(reference)) + "](#" + Markdown.slug(type) + ")");
    }
}
