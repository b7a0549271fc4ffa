package dev.redrive.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.javadoc.description.JavadocDescription;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Doc comments as Markdown: inline tags as code, links resolved when known, paragraphs, lists and code blocks. */
class JavadocMarkdownTest {

    @Test
    void inlineTagsAreCodeSpans() {
        assertThat(render("A {@code redrive.claims.table} of {@link dev.redrive.x.A#b()}, {@link #c(int, String)},"
                        + " {@value A#MAX} and {@link A the label}; {@code a `tick`}."))
                .isEqualTo(
                        "A `redrive.claims.table` of `A.b()`, `c(int, String)`, `A.MAX` and the label; `` a `tick` ``.");
    }

    @Test
    void knownLinksAreLinked() {
        JavadocMarkdown.Links links = r -> r.equals("#b()") ? Optional.of("[`x.b`](#xb)") : Optional.empty();

        assertThat(JavadocMarkdown.render(description("See {@link #b()} and {@link #c()}."), links))
                .isEqualTo("See [`x.b`](#xb) and `c()`.");
    }

    @Test
    void paragraphsListsAndCodeBlocks() {
        String text = "First\n line.\n\n<p>Second: <ul>\n<li>one *star*;</li>\n<li>two &lt;x&gt;.</li>\n</ul>\n"
                + "<pre>{@code\nBuilder.create(this, \"Id\")\n        .build();\n}</pre>";

        assertThat(render(text))
                .isEqualTo("First line.\n\nSecond:\n\n- one \\*star\\*;\n- two &lt;x&gt;.\n\n"
                        + "```java\nBuilder.create(this, \"Id\")\n        .build();\n```");
        assertThat(JavadocMarkdown.renderInline(description("a | b\n<p>c"), JavadocMarkdown.Links.NONE))
                .isEqualTo("a \\| b<br><br>c");
    }

    @Test
    void packagesAreLeftOutOfCodeButNotOfItsStrings() {
        assertThat(JavadocMarkdown.withoutPackages(
                        "java.util.List.of(\"dev.redrive.sweeper.Handler::handle\", java.time.Duration.ZERO)"))
                .isEqualTo("List.of(\"dev.redrive.sweeper.Handler::handle\", Duration.ZERO)");
        assertThat(JavadocMarkdown.simpleReference("dev.redrive.lambda.RedriveSettings.Defaults#CLAIMS_TABLE"))
                .isEqualTo("RedriveSettings.Defaults.CLAIMS_TABLE");
    }

    private static String render(String text) {
        return JavadocMarkdown.render(description(text), JavadocMarkdown.Links.NONE);
    }

    private static JavadocDescription description(String text) {
        return JavadocDescription.parseText(text);
    }
}
