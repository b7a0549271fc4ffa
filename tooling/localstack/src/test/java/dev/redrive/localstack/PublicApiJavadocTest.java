package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The platform's public API is documented: every public type (class, interface, record, enum, annotation; top-level
 * or nested in a public type) under {@code platform/*}{@code /src/main/java} in a package that is not internal (no
 * {@code internal} segment in its name, e.g. {@code dev.redrive.lambda.internal}) has a Javadoc comment with at least
 * one sentence of text. The sources are parsed with the JDK's own parser (javac, parse only), so annotations between
 * the comment and the declaration are fine, and a comment elsewhere does not count.
 */
class PublicApiJavadocTest {

    static final Path ROOT = BomTest.ROOT;

    @Test
    void everyPublicTypeOutsideInternalPackagesHasJavadoc() throws IOException {
        List<Path> sources = platformSources();
        assertThat(sources).as("platform sources found").hasSizeGreaterThan(100);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            List<String> offenders = undocumentedPublicTypes(files.getJavaFileObjectsFromPaths(sources));
            assertThat(offenders)
                    .as("public API types without a Javadoc sentence (module path:line Type); write one or two"
                            + " true sentences saying what each is for, or move it to an .internal package")
                    .isEmpty();
        }
    }

    @Test
    void theCheckerCatchesAnUndocumentedPublicTypeAndSkipsWhatIsNotApi() {
        List<JavaFileObject> sources = List.of(
                source("platform/redrive-x/src/main/java/dev/redrive/x/Undocumented.java", """
                        package dev.redrive.x;

                        // a line comment is not Javadoc
                        public class Undocumented {
                            /** Documented, nested. */
                            public record Nested(int a) {}

                            public enum NestedUndocumented { A }

                            /* a block comment is not Javadoc either */
                            public interface AlsoUndocumented {
                                interface ImplicitlyPublic {}
                            }

                            static class NotPublic {}

                            void method() {
                                class Local {}
                            }
                        }
                        """),
                source("platform/redrive-x/src/main/java/dev/redrive/x/Documented.java", """
                        package dev.redrive.x;

                        /**
                         * A documented type: annotations may stand between the comment and the declaration.
                         *
                         * @param <T> the element
                         */
                        @Deprecated
                        @SuppressWarnings("unused")
                        public final class Documented<T> {
                            /** Nested and documented. */
                            public @interface Marker {}
                        }
                        """),
                source("platform/redrive-x/src/main/java/dev/redrive/x/Empty.java", """
                        package dev.redrive.x;

                        /**
                         * @since 0.1
                         */
                        public class Empty {}

                        class PackagePrivate {}
                        """),
                source("platform/redrive-x/src/main/java/dev/redrive/x/internal/Wiring.java", """
                        package dev.redrive.x.internal;

                        public class Wiring {
                            public static class Nested {}
                        }
                        """),
                source("platform/redrive-x/src/main/java/dev/redrive/x/internal/deep/More.java", """
                        package dev.redrive.x.internal.deep;

                        public record More() {}
                        """));

        assertThat(undocumentedPublicTypes(sources))
                .containsExactly(
                        "redrive-x platform/redrive-x/src/main/java/dev/redrive/x/Undocumented.java:4 Undocumented",
                        "redrive-x platform/redrive-x/src/main/java/dev/redrive/x/Undocumented.java:8"
                                + " Undocumented.NestedUndocumented",
                        "redrive-x platform/redrive-x/src/main/java/dev/redrive/x/Undocumented.java:11"
                                + " Undocumented.AlsoUndocumented",
                        "redrive-x platform/redrive-x/src/main/java/dev/redrive/x/Undocumented.java:12"
                                + " Undocumented.AlsoUndocumented.ImplicitlyPublic",
                        "redrive-x platform/redrive-x/src/main/java/dev/redrive/x/Empty.java:6 Empty");
    }

    /**
     * Every {@code .java} file under a platform module's {@code src/main/java}: {@code platform/<module>} or, for a
     * module made of modules (the Quarkus extension's runtime and deployment), {@code platform/<module>/<part>}; in a
     * stable order.
     */
    private static List<Path> platformSources() throws IOException {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.walk(ROOT.resolve("platform"), 2)) {
            for (Path main : modules.filter(m -> !m.getFileName().toString().equals("target"))
                    .map(m -> m.resolve("src/main/java"))
                    .filter(Files::isDirectory)
                    .sorted()
                    .toList()) {
                try (Stream<Path> walk = Files.walk(main)) {
                    walk.filter(p -> p.toString().endsWith(".java"))
                            .filter(p -> !p.getFileName().toString().equals("package-info.java"))
                            .filter(p -> !p.getFileName().toString().equals("module-info.java"))
                            .sorted()
                            .forEach(sources::add);
                }
            }
        }
        return sources;
    }

    /**
     * Parses {@code sources} (syntax only, no class path needed) and lists each public API type without a Javadoc
     * sentence as {@code module path:line Type}.
     */
    static List<String> undocumentedPublicTypes(Iterable<? extends JavaFileObject> sources) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavacTask task = (JavacTask) javac.getTask(null, null, diagnostics, List.of("-proc:none"), null, sources);
        Iterable<? extends CompilationUnitTree> units;
        try {
            units = task.parse();
        } catch (IOException e) {
            throw new AssertionError("could not read the sources: " + e.getMessage(), e);
        }
        List<String> errors = diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(Object::toString)
                .toList();
        assertThat(errors).as("the sources parse").isEmpty();

        DocTrees docTrees = DocTrees.instance(task);
        List<String> offenders = new ArrayList<>();
        for (CompilationUnitTree unit : units) {
            String pkg =
                    unit.getPackageName() == null ? "" : unit.getPackageName().toString();
            if (isInternal(pkg)) {
                continue;
            }
            for (Tree decl : unit.getTypeDecls()) {
                if (decl instanceof ClassTree type) {
                    check(docTrees, unit, new TreePath(new TreePath(unit), type), "", false, offenders);
                }
            }
        }
        return offenders;
    }

    /** Checks {@code path}'s type and its member types; {@code inInterface}: declared in an interface body. */
    private static void check(
            DocTrees docTrees,
            CompilationUnitTree unit,
            TreePath path,
            String outer,
            boolean inInterface,
            List<String> offenders) {
        ClassTree type = (ClassTree) path.getLeaf();
        boolean isPublic = type.getModifiers().getFlags().contains(Modifier.PUBLIC) || inInterface;
        if (!isPublic) {
            return; // not API, and neither are its member types
        }
        String name = outer.isEmpty() ? type.getSimpleName().toString() : outer + "." + type.getSimpleName();
        if (!hasSentence(docTrees.getDocCommentTree(path))) {
            long line = unit.getLineMap()
                    .getLineNumber(docTrees.getSourcePositions().getStartPosition(unit, type));
            offenders.add(label(unit.getSourceFile()) + ":" + line + " " + name);
        }
        boolean interfaceBody = type.getKind() == Tree.Kind.INTERFACE || type.getKind() == Tree.Kind.ANNOTATION_TYPE;
        for (Tree member : type.getMembers()) {
            if (member instanceof ClassTree nested) {
                check(docTrees, unit, new TreePath(path, nested), name, interfaceBody, offenders);
            }
        }
    }

    /** At least one sentence: the comment's body (before any block tag) holds two words or more. */
    private static boolean hasSentence(DocCommentTree doc) {
        if (doc == null) {
            return false;
        }
        StringBuilder body = new StringBuilder();
        doc.getFullBody().forEach(t -> body.append(t).append(' '));
        Matcher words = Pattern.compile("\\p{L}[\\p{L}\\p{N}'-]*").matcher(body);
        int count = 0;
        while (words.find()) {
            count++;
        }
        return count >= 2;
    }

    private static boolean isInternal(String pkg) {
        return Arrays.asList(pkg.split("\\.")).contains("internal");
    }

    /** {@code module path}: the module under {@code platform/}, and the path from the repository root. */
    private static String label(JavaFileObject file) {
        String uri = file.toUri().toString();
        Path asPath = file.toUri().getScheme().equals("file") ? Path.of(file.toUri()) : null;
        String path = asPath != null && asPath.startsWith(ROOT)
                ? ROOT.relativize(asPath).toString().replace('\\', '/')
                : uri.substring(uri.indexOf("platform/") < 0 ? 0 : uri.indexOf("platform/"));
        Matcher module = Pattern.compile("platform/([^/]+)/").matcher(path);
        return (module.find() ? module.group(1) : "?") + " " + path;
    }

    private static JavaFileObject source(String path, String code) {
        return new SimpleJavaFileObject(URI.create("string:///" + path), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
    }
}
