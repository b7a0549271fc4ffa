package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/**
 * The consumer classes the README and the getting-started guide show are the quickstart's, as they are: every fenced
 * {@code java} block that is a whole {@code public class X} equals {@code examples/quickstart}'s {@code X.java} from its
 * {@code public class} line to the end ({@code bin/build-quickstart} checks the quickstart's own README the same way).
 */
class QuickstartSnippetsTest {

    private static final Path ROOT = BomTest.ROOT;
    private static final Path QUICKSTART = ROOT.resolve("examples/quickstart/src/main/java/com/example/quickstart");
    private static final Pattern CLASS = Pattern.compile("^public class (\\w+)");

    @Test
    void theConsumersTheDocsShowAreTheQuickstartsClassesAsTheyAre() throws IOException {
        int compared = 0;
        for (String doc : List.of("README.md", "docs/getting-started.md")) {
            for (String block : javaBlocks(ROOT.resolve(doc))) {
                Matcher name = CLASS.matcher(block);
                if (!name.find()) {
                    continue;
                }
                Path source = QUICKSTART.resolve(name.group(1) + ".java");
                assertThat(source).as(doc + " shows class " + name.group(1)).exists();
                String text = Files.readString(source, StandardCharsets.UTF_8);
                String fromClass = text.substring(text.indexOf("public class " + name.group(1)));
                assertThat(block.strip())
                        .as(doc + "'s " + name.group(1) + " is " + ROOT.relativize(source) + " as it is")
                        .isEqualTo(fromClass.strip());
                compared++;
            }
        }
        assertThat(compared).as("quickstart classes shown in the docs").isGreaterThanOrEqualTo(3);
    }

    private static List<String> javaBlocks(Path markdown) throws IOException {
        List<String> blocks = new ArrayList<>();
        Parser.builder()
                .build()
                .parse(Files.readString(markdown, StandardCharsets.UTF_8))
                .accept(new AbstractVisitor() {
                    @Override
                    public void visit(FencedCodeBlock block) {
                        if ("java".equals(block.getInfo())) {
                            blocks.add(block.getLiteral());
                        }
                    }
                });
        return blocks;
    }
}
