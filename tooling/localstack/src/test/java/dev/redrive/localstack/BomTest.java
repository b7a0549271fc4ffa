package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * {@code platform/redrive-bom}: a user imports it and names Redrive's artifacts without versions, so it must manage
 * every artifact under {@code platform/}, at the build's version, and nothing else (no third-party pin leaks into a
 * user's build: it has no parent).
 */
class BomTest {

    static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

    @Test
    void theBomManagesEveryPlatformArtifactAtTheBuildsVersionAndNothingElse() throws Exception {
        Element bom = read(ROOT.resolve("platform/redrive-bom/pom.xml"));
        Set<String> managed = new TreeSet<>();
        NodeList deps = bom.getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            assertThat(child(d, "groupId")).isEqualTo("dev.redrive");
            assertThat(child(d, "version")).isEqualTo("${project.version}");
            managed.add(child(d, "artifactId"));
        }
        Set<String> platform = new TreeSet<>();
        try (Stream<Path> modules = Files.list(ROOT.resolve("platform"))) {
            for (Path pom :
                    modules.map(m -> m.resolve("pom.xml")).filter(Files::exists).toList()) {
                platform.addAll(artifacts(pom));
            }
        }
        platform.remove("redrive-bom");

        assertThat(managed).isEqualTo(platform);
        assertThat(bom.getElementsByTagName("parent").getLength())
                .as("no parent")
                .isZero();
        assertThat(child(bom, "version")).isEqualTo(child(read(ROOT.resolve("pom.xml")), "version"));
        assertThat(modules(read(ROOT.resolve("pom.xml")))).contains("platform/redrive-bom");
    }

    /**
     * The artifacts {@code pom} builds: its own, or, for an aggregator (packaging {@code pom} with modules, such as the
     * Quarkus extension's runtime and deployment), its modules'.
     */
    private static List<String> artifacts(Path pom) throws Exception {
        Element project = read(pom);
        List<String> modules = modules(project);
        if (modules.isEmpty()) {
            return List.of(child(project, "artifactId"));
        }
        List<String> artifacts = new java.util.ArrayList<>();
        for (String module : modules) {
            artifacts.addAll(artifacts(pom.resolveSibling(module).resolve("pom.xml")));
        }
        return artifacts;
    }

    private static Element read(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(pom.toFile())
                .getDocumentElement();
    }

    /** The text of {@code element}'s direct child {@code name}. */
    private static String child(Element element, String name) {
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().strip();
            }
        }
        throw new AssertionError(element.getTagName() + " has no " + name);
    }

    private static List<String> modules(Element pom) {
        NodeList list = pom.getElementsByTagName("module");
        return java.util.stream.IntStream.range(0, list.getLength())
                .mapToObj(i -> list.item(i).getTextContent().strip())
                .toList();
    }
}
