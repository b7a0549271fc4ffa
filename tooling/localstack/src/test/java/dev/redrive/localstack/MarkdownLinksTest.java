package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link and every {@code #anchor} in the repository's Markdown resolves: the README, CHANGELOG,
 * CONTRIBUTING and SECURITY, {@code docs/**}, and every module's README. The files are parsed with commonmark-java (links,
 * images and link reference definitions as a Markdown renderer sees them, so a link inside a code block is not a link);
 * a link with a scheme ({@code https:}, {@code mailto:}) is left alone (no network). A path is resolved against the
 * linking file's folder ({@code /} against the repository's root) and must exist; an anchor must be a heading of the
 * target Markdown file by GitHub's rule (lower-case, spaces to {@code -}, punctuation dropped, {@code -1}, {@code -2}
 * for repeated headings) or an {@code id}/{@code name} of its HTML.
 */
class MarkdownLinksTest {

    static final Path ROOT = BomTest.ROOT;
    /** Folders never read: build output, dependencies, tool state. */
    private static final Set<String> SKIPPED =
            Set.of("target", "node_modules", ".git", ".venv", ".mvn", "cdk.out", ".idea", ".vscode");

    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
    private static final Pattern HTML_LINK = Pattern.compile("(?i)\\b(?:href|src)\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern HTML_ANCHOR = Pattern.compile("(?i)\\b(?:id|name)\\s*=\\s*\"([^\"]*)\"");
    private static final Parser PARSER = Parser.builder()
            .includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES)
            .build();

    @Test
    void everyRelativeLinkAndAnchorInTheRepositorysMarkdownResolves() {
        List<Path> files = markdownFiles(ROOT);
        assertThat(files)
                .as("Markdown files found under " + ROOT)
                .contains(
                        ROOT.resolve("README.md"),
                        ROOT.resolve("CHANGELOG.md"),
                        ROOT.resolve("CONTRIBUTING.md"),
                        ROOT.resolve("SECURITY.md"),
                        ROOT.resolve("docs/README.md"),
                        ROOT.resolve("docs/runbook.md"),
                        ROOT.resolve("platform/redrive-lambda/README.md"));

        List<String> broken = new Checker(ROOT).check(files);

        assertThat(broken)
                .as("broken links (file:line -> target: why); fix the link or the heading it names")
                .isEmpty();
    }

    @Test
    void theCheckerCatchesAMissingFileAMissingAnchorAndIgnoresCodeAndAbsoluteLinks(@TempDir Path dir)
            throws IOException {
        Files.createDirectories(dir.resolve("docs"));
        Files.writeString(dir.resolve("docs/guide.md"), """
                # A guide

                ## Step one: install, then `run`

                ## Step one: install, then `run`
                """);
        Files.writeString(dir.resolve("README.md"), """
                # Top

                [fine](docs/guide.md) [fine too](docs/guide.md#step-one-install-then-run)
                [the repeated heading](docs/guide.md#step-one-install-then-run-1) [here](#top) [a folder](docs/)
                [gone](docs/missing.md) and [no such heading](docs/guide.md#step-two)
                [no anchor here](#bottom) ![no picture](docs/picture.png) [ref][r]
                [web](https://example.com/nowhere) <mailto:nobody@example.com> `[code](not/a/link.md)`

                ```
                [in a block](not/a/link/either.md)
                ```

                [r]: docs/ref-gone.md
                """);

        List<String> broken = new Checker(dir).check(markdownFiles(dir));

        assertThat(broken)
                .containsExactlyInAnyOrder(
                        "README.md:5 -> docs/missing.md: no such file",
                        "README.md:5 -> docs/guide.md#step-two: no heading 'step-two' in docs/guide.md",
                        "README.md:6 -> #bottom: no heading 'bottom' in README.md",
                        "README.md:6 -> docs/picture.png: no such file",
                        "README.md:6 -> docs/ref-gone.md: no such file");
    }

    @Test
    void anchorsFollowGitHubsSlugRule() {
        assertThat(slug("Practise on it: the settings to paste, `--keep-running`, `--practice`"))
                .isEqualTo("practise-on-it-the-settings-to-paste---keep-running---practice");
        assertThat(slug("The producer: `POST /orders` and its transactional outbox"))
                .isEqualTo("the-producer-post-orders-and-its-transactional-outbox");
        assertThat(slug("At 3 a.m.: the five moves")).isEqualTo("at-3-am-the-five-moves");
        assertThat(slug("The checkout example's alarms")).isEqualTo("the-checkout-examples-alarms");
        assertThat(slug("redrive_cli — the CLI")).isEqualTo("redrive_cli--the-cli");
    }

    /** GitHub's heading anchor: lower-case, punctuation and symbols dropped (not '-' or '_'), each space a '-'. */
    static String slug(String heading) {
        StringBuilder out = new StringBuilder();
        heading.trim().toLowerCase(java.util.Locale.ROOT).codePoints().forEach(c -> {
            if (c == ' ') {
                out.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    static List<Path> markdownFiles(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .filter(Files::isRegularFile)
                    .filter(p -> {
                        for (Path part : root.relativize(p)) {
                            if (SKIPPED.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads each Markdown file once, its links and its anchors. */
    static final class Checker {
        private final Path root;
        private final Map<Path, Parsed> parsed = new HashMap<>();

        Checker(Path root) {
            this.root = root;
        }

        List<String> check(List<Path> files) {
            List<String> broken = new ArrayList<>();
            for (Path file : files) {
                for (Target link : parse(file).links) {
                    String why = problem(file, link.destination);
                    if (why != null) {
                        broken.add(root.relativize(file) + ":" + link.line + " -> " + link.destination + ": " + why);
                    }
                }
            }
            return broken;
        }

        /** Null when the link resolves, else why not. */
        private String problem(Path from, String destination) {
            if (destination.isEmpty() || SCHEME.matcher(destination).find()) {
                return null;
            }
            int hash = destination.indexOf('#');
            String pathPart = hash < 0 ? destination : destination.substring(0, hash);
            String anchor = hash < 0 ? null : destination.substring(hash + 1);
            int query = pathPart.indexOf('?');
            if (query >= 0) {
                pathPart = pathPart.substring(0, query);
            }
            Path target;
            if (pathPart.isEmpty()) {
                target = from;
            } else {
                String decoded = URLDecoder.decode(pathPart.replace("+", "%2B"), StandardCharsets.UTF_8);
                target = (decoded.startsWith("/")
                                ? root.resolve(decoded.substring(1))
                                : from.getParent().resolve(decoded))
                        .normalize();
                if (!target.startsWith(root)) {
                    return "outside the repository";
                }
                if (!Files.exists(target)) {
                    return "no such file";
                }
            }
            if (anchor == null
                    || anchor.isEmpty()
                    || !target.getFileName().toString().endsWith(".md")) {
                return null; // an anchor into source code (#L10) or a folder is the host's business
            }
            String wanted = URLDecoder.decode(anchor.replace("+", "%2B"), StandardCharsets.UTF_8);
            if (!parse(target).anchors.contains(wanted)) {
                return "no heading '" + wanted + "' in " + root.relativize(target);
            }
            return null;
        }

        private Parsed parse(Path file) {
            return parsed.computeIfAbsent(file, f -> {
                try {
                    return Parsed.of(Files.readString(f, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private record Target(String destination, int line) {}

    /** One file's links (with the line they start on) and the anchors it defines. */
    private record Parsed(List<Target> links, Set<String> anchors) {

        static Parsed of(String markdown) {
            Node document = PARSER.parse(markdown);
            List<Target> links = new ArrayList<>();
            Set<String> anchors = new LinkedHashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            document.accept(new AbstractVisitor() {
                @Override
                public void visit(Heading heading) {
                    String base = slug(plainText(heading));
                    int n = seen.merge(base, 1, Integer::sum) - 1;
                    anchors.add(n == 0 ? base : base + "-" + n);
                    visitChildren(heading);
                }

                @Override
                public void visit(Link link) {
                    links.add(new Target(link.getDestination(), lineOf(link)));
                    visitChildren(link);
                }

                @Override
                public void visit(Image image) {
                    links.add(new Target(image.getDestination(), lineOf(image)));
                    visitChildren(image);
                }

                @Override
                public void visit(HtmlInline html) {
                    html(html.getLiteral(), lineOf(html));
                }

                @Override
                public void visit(HtmlBlock html) {
                    html(html.getLiteral(), lineOf(html));
                }

                private void html(String literal, int line) {
                    Matcher href = HTML_LINK.matcher(literal);
                    while (href.find()) {
                        links.add(new Target(href.group(1), line));
                    }
                    Matcher id = HTML_ANCHOR.matcher(literal);
                    while (id.find()) {
                        anchors.add(id.group(1));
                    }
                }
            });
            return new Parsed(links, anchors);
        }

        /** The heading's text as GitHub slugs it: its text and code spans, without the Markdown around them. */
        private static String plainText(Node node) {
            StringBuilder text = new StringBuilder();
            node.accept(new AbstractVisitor() {
                @Override
                public void visit(Text t) {
                    text.append(t.getLiteral());
                }

                @Override
                public void visit(Code code) {
                    text.append(code.getLiteral());
                }
            });
            return text.toString();
        }

        /** The (1-based) line the node starts on, from its source span. */
        private static int lineOf(Node node) {
            return node.getSourceSpans().isEmpty()
                    ? 0
                    : node.getSourceSpans().get(0).getLineIndex() + 1;
        }
    }
}
