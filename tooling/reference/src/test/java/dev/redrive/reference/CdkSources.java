package dev.redrive.reference;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Modifier;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.nodeTypes.NodeWithModifiers;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The public types of {@code redrive-cdk}'s sources (internal packages left out), and which of them its reference
 * shows: every public construct (a class extending {@code Construct}), the types its constructors, factories, builder
 * and record components take (its props), the types those take (their settings), and every other public record named
 * {@code ...Props} or {@code ...Settings}.
 */
final class CdkSources {

    /** One top-level public type: its declaration, its package and its file, relative to the repository's root. */
    record Source(TypeDeclaration<?> type, String packageName, Path file) {

        String name() {
            return type.getNameAsString();
        }

        boolean construct() {
            return type instanceof ClassOrInterfaceDeclaration c
                    && c.getExtendedTypes().stream()
                            .anyMatch(t -> t.getNameAsString().equals("Construct"));
        }
    }

    private static final Pattern TYPE_NAME = Pattern.compile("\\b[A-Z][A-Za-z0-9_]*");

    private final Map<String, Source> types = new LinkedHashMap<>();

    /** Reads the sources under {@code sourceRoot} (relative to the repository's root). */
    CdkSources(Path sourceRoot) {
        for (Path file : JavaSources.javaFiles(JavaSources.ROOT.resolve(sourceRoot))) {
            CompilationUnit cu = JavaSources.parse(file);
            String pkg =
                    cu.getPackageDeclaration().map(p -> p.getNameAsString()).orElse("");
            if (pkg.contains(".internal")) {
                continue;
            }
            for (TypeDeclaration<?> t : cu.getTypes()) {
                if (t.isPublic()) {
                    types.put(t.getNameAsString(), new Source(t, pkg, JavaSources.ROOT.relativize(file)));
                }
            }
        }
    }

    /** The public type named {@code simpleName}, if the sources declare one at the top level. */
    Optional<Source> type(String simpleName) {
        return Optional.ofNullable(types.get(simpleName));
    }

    /** The public constructs: the root package's first, then by package and name. */
    List<Source> constructs() {
        return types.values().stream()
                .filter(Source::construct)
                .sorted(Comparator.comparing((Source s) ->
                                s.packageName().chars().filter(c -> c == '.').count())
                        .thenComparing(Source::packageName)
                        .thenComparing(Source::name))
                .toList();
    }

    /** The props and settings of the constructs, in the order they are first reached, then the other ones by name. */
    List<Source> settings() {
        Set<Source> reached = new LinkedHashSet<>();
        List<Source> constructs = constructs();
        List<Source> props = new ArrayList<>();
        for (Source c : constructs) {
            inputs(c.type()).stream().filter(s -> !s.construct()).forEach(s -> {
                if (reached.add(s)) {
                    props.add(s);
                }
            });
        }
        for (Source p : props) {
            inputs(p.type()).stream().filter(s -> !s.construct()).forEach(reached::add);
        }
        types.values().stream()
                .filter(s -> s.type() instanceof RecordDeclaration)
                .filter(s -> s.name().endsWith("Props") || s.name().endsWith("Settings"))
                .sorted(Comparator.comparing(Source::name))
                .forEach(reached::add);
        return List.copyOf(reached);
    }

    /**
     * The types {@code type} takes: its public constructors' and static methods' parameters, its record components,
     * its builder's, the interfaces it implements, and what its nested public types take.
     */
    private Set<Source> inputs(TypeDeclaration<?> type) {
        Set<Source> found = new LinkedHashSet<>();
        if (type instanceof ClassOrInterfaceDeclaration c) {
            c.getImplementedTypes().stream()
                    .map(ClassOrInterfaceType::getNameAsString)
                    .forEach(n -> add(n, found));
        }
        if (type instanceof RecordDeclaration r) {
            r.getParameters().forEach(p -> parameterTypes(p, found));
        }
        for (BodyDeclaration<?> member : type.getMembers()) {
            if (member instanceof CallableDeclaration<?> callable && isPublic(callable, type) && takes(callable)) {
                callable.getParameters().forEach(p -> parameterTypes(p, found));
            } else if (member instanceof TypeDeclaration<?> nested && nested.isPublic()) {
                found.addAll(inputs(nested));
            }
        }
        found.removeIf(s -> s.type() == type);
        return found;
    }

    /** Constructors, static methods and builder setters take what a type is made of; other methods do not. */
    private static boolean takes(CallableDeclaration<?> callable) {
        return !(callable instanceof MethodDeclaration m)
                || m.isStatic()
                || m.getType().asString().equals("Builder");
    }

    private void parameterTypes(Parameter parameter, Set<Source> found) {
        Matcher m = TYPE_NAME.matcher(parameter.getType().asString());
        while (m.find()) {
            add(m.group(), found);
        }
    }

    private void add(String simpleName, Set<Source> found) {
        type(simpleName).ifPresent(found::add);
    }

    /** Public as declared, or a member of an interface (implicitly public). */
    static boolean isPublic(NodeWithModifiers<?> member, TypeDeclaration<?> owner) {
        boolean inInterface = owner instanceof ClassOrInterfaceDeclaration c && c.isInterface();
        return inInterface
                ? !member.hasModifier(Modifier.Keyword.PRIVATE)
                : member.hasModifier(Modifier.Keyword.PUBLIC);
    }
}
