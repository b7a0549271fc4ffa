package dev.redrive.reference;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.nodeTypes.NodeWithJavadoc;
import com.github.javaparser.javadoc.Javadoc;
import com.github.javaparser.javadoc.JavadocBlockTag;
import com.github.javaparser.javadoc.description.JavadocDescription;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The repository's Java sources, parsed by JavaParser at Java 17's language level (records, pattern matching). */
final class JavaSources {

    /** The repository's root, from a module's directory (where Surefire runs the tests). */
    static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

    private JavaSources() {}

    /** Parses {@code file}; a file JavaParser cannot parse fails, naming its problems. */
    static CompilationUnit parse(Path file) {
        JavaParser parser =
                new JavaParser(new ParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17));
        try {
            ParseResult<CompilationUnit> result = parser.parse(file);
            return result.getResult()
                    .filter(cu -> result.isSuccessful())
                    .orElseThrow(() -> new IllegalStateException(file + " does not parse: " + result.getProblems()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code .java} files under {@code directory}, sorted by path. */
    static List<Path> javaFiles(Path directory) {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The type named {@code simpleName} declared in {@code cu}, at any depth. */
    static Optional<TypeDeclaration<?>> type(CompilationUnit cu, String simpleName) {
        for (TypeDeclaration<?> t : cu.findAll(TypeDeclaration.class)) {
            if (t.getNameAsString().equals(simpleName)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** The doc comment of {@code declaration}'s text (block tags left out); empty when it has none. */
    static Optional<JavadocDescription> description(BodyDeclaration<?> declaration) {
        return javadoc(declaration)
                .map(Javadoc::getDescription)
                .filter(d -> !d.toText().isBlank());
    }

    /** The {@code @param name} text of {@code declaration}'s doc comment. */
    static Optional<JavadocDescription> param(BodyDeclaration<?> declaration, String name) {
        return javadoc(declaration)
                .flatMap(j -> j.getBlockTags().stream()
                        .filter(t -> t.getType() == JavadocBlockTag.Type.PARAM)
                        .filter(t -> t.getName().filter(name::equals).isPresent())
                        .map(JavadocBlockTag::getContent)
                        .filter(d -> !d.toText().isBlank())
                        .findFirst());
    }

    private static Optional<Javadoc> javadoc(BodyDeclaration<?> declaration) {
        return declaration instanceof NodeWithJavadoc<?> documented ? documented.getJavadoc() : Optional.empty();
    }
}
