package dev.redrive.reference;

import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.EnumConstantDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.javadoc.description.JavadocDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One type's section of the CDK constructs' reference: what it is and where (its package, what it extends and
 * implements, its source), its doc comment, how it is made (public constructors and factories), its properties
 * ({@link PropertyRows}), an enum's constants, its public methods (a method without a doc comment takes the one of the
 * interface method it implements), its public constants, and its public nested types but the builder.
 */
final class TypeSection {

    /** Parameters shown with their types at most; a longer list shows their names only. */
    static final int TYPED_PARAMETERS = 4;

    private final CdkSources sources;
    private final PropertyRows properties;
    private final JavadocMarkdown.Links links;

    TypeSection(CdkSources sources, PropertyRows properties, JavadocMarkdown.Links links) {
        this.sources = sources;
        this.properties = properties;
        this.links = links;
    }

    /** The section of {@code source}, under a level-3 heading. */
    String render(CdkSources.Source source) {
        StringBuilder out = new StringBuilder();
        TypeDeclaration<?> type = source.type();
        out.append("### ").append(source.name()).append("\n\n");
        out.append(kind(type, source.construct())).append(" in ").append(Markdown.code(source.packageName()));
        out.append(relations(type))
                .append(" · [source](../../")
                .append(source.file().toString().replace('\\', '/'));
        out.append(")\n\n");
        body(type, out);
        for (BodyDeclaration<?> member : type.getMembers()) {
            if (member instanceof TypeDeclaration<?> nested
                    && nested.isPublic()
                    && !nested.getNameAsString().equals("Builder")) {
                out.append("#### ")
                        .append(source.name())
                        .append('.')
                        .append(nested.getNameAsString())
                        .append("\n\n");
                out.append(kind(nested, false)).append(" nested in ").append(Markdown.code(source.name()));
                out.append("\n\n");
                body(nested, out);
            }
        }
        return out.toString();
    }

    private void body(TypeDeclaration<?> type, StringBuilder out) {
        JavaSources.description(type)
                .ifPresent(d -> out.append(JavadocMarkdown.render(d, links)).append("\n\n"));
        table(out, "Made with", List.of("Constructor or factory", "Description"), creation(type));
        table(
                out,
                "Properties",
                List.of("Property", "Type", "Default", "Description"),
                properties.of(type).stream()
                        .map(r -> List.of(Markdown.code(r.name()), Markdown.code(r.type()), r.defaultText(), r.doc()))
                        .toList());
        if (type instanceof EnumDeclaration e) {
            List<List<String>> rows = new ArrayList<>();
            for (EnumConstantDeclaration c : e.getEntries()) {
                rows.add(List.of(Markdown.code(c.getNameAsString()), inline(JavaSources.description(c))));
            }
            table(out, "Constants", List.of("Constant", "Description"), rows);
        }
        table(out, "Methods", List.of("Method", "Returns", "Description"), methods(type));
        table(out, "Constants", List.of("Constant", "Type", "Value", "Description"), constants(type));
    }

    private List<List<String>> creation(TypeDeclaration<?> type) {
        List<List<String>> rows = new ArrayList<>();
        String name = type.getNameAsString();
        if (type instanceof RecordDeclaration r) {
            rows.add(List.of(
                    Markdown.code("new " + name + signature(r.getParameters())),
                    "every component, in declaration order"));
        }
        for (ConstructorDeclaration c : type.getConstructors()) {
            if (CdkSources.isPublic(c, type)) {
                rows.add(List.of(Markdown.code("new " + name + signature(c.getParameters())), doc(c)));
            }
        }
        for (MethodDeclaration m : factories(type)) {
            String owner = type.getMethods().contains(m) ? name : name + ".Builder";
            rows.add(List.of(Markdown.code(owner + "." + m.getNameAsString() + signature(m.getParameters())), doc(m)));
        }
        return rows;
    }

    /** The public static methods that return the type or its builder, on the type or on its builder. */
    private static List<MethodDeclaration> factories(TypeDeclaration<?> type) {
        String name = type.getNameAsString();
        List<MethodDeclaration> found = new ArrayList<>();
        type.getMembers().stream()
                .filter(m -> m instanceof ClassOrInterfaceDeclaration c
                        && c.getNameAsString().equals("Builder"))
                .findFirst()
                .ifPresent(b -> ((TypeDeclaration<?>) b)
                        .getMethods().stream()
                                .filter(m -> m.isStatic() && m.isPublic())
                                .forEach(found::add));
        type.getMethods().stream()
                .filter(m -> m.isStatic() && CdkSources.isPublic(m, type))
                .filter(m -> List.of(name, "Builder", name + ".Builder").contains(m.getTypeAsString()))
                .forEach(found::add);
        return found;
    }

    private List<List<String>> methods(TypeDeclaration<?> type) {
        List<MethodDeclaration> factories = factories(type);
        List<List<String>> rows = new ArrayList<>();
        for (MethodDeclaration m : type.getMethods()) {
            if (CdkSources.isPublic(m, type) && !factories.contains(m)) {
                rows.add(List.of(
                        Markdown.code(m.getNameAsString() + signature(m.getParameters())),
                        Markdown.code(JavadocMarkdown.withoutPackages(m.getTypeAsString())),
                        inline(JavaSources.description(m).or(() -> inherited(type, m)))));
            }
        }
        return rows;
    }

    /** The doc comment of the method {@code m} implements, in an interface of these sources. */
    private Optional<JavadocDescription> inherited(TypeDeclaration<?> type, MethodDeclaration m) {
        if (!(type instanceof ClassOrInterfaceDeclaration c)) {
            return Optional.empty();
        }
        return c.getImplementedTypes().stream()
                .map(ClassOrInterfaceType::getNameAsString)
                .flatMap(n -> sources.type(n).stream())
                .flatMap(s -> s.type().getMethodsBySignature(m.getNameAsString(), parameterTypes(m)).stream())
                .flatMap(i -> JavaSources.description(i).stream())
                .findFirst();
    }

    private List<List<String>> constants(TypeDeclaration<?> type) {
        List<List<String>> rows = new ArrayList<>();
        for (FieldDeclaration f : type.getFields()) {
            if (CdkSources.isPublic(f, type) && (f.isStatic() || isInterface(type))) {
                for (VariableDeclarator v : f.getVariables()) {
                    String value = v.getInitializer()
                            .map(i -> defaults(type, v)
                                    ? "the defaults under **Properties**"
                                    : Markdown.code(JavadocMarkdown.withoutPackages(i.toString())))
                            .orElse("");
                    rows.add(List.of(
                            Markdown.code(v.getNameAsString()),
                            Markdown.code(JavadocMarkdown.withoutPackages(v.getTypeAsString())),
                            Markdown.cell(value),
                            inline(JavaSources.description(f))));
                }
            }
        }
        return rows;
    }

    /** Whether {@code v} is the record's {@code DEFAULT}, whose values the properties table shows. */
    private static boolean defaults(TypeDeclaration<?> type, VariableDeclarator v) {
        return type instanceof RecordDeclaration r
                && v.getNameAsString().equals("DEFAULT")
                && v.getInitializer()
                        .filter(i -> i.isObjectCreationExpr()
                                && i.asObjectCreationExpr().getArguments().size()
                                        == r.getParameters().size())
                        .isPresent();
    }

    private static String kind(TypeDeclaration<?> type, boolean construct) {
        if (construct) {
            return "Construct";
        }
        if (type instanceof RecordDeclaration) {
            return "Record";
        }
        if (type instanceof EnumDeclaration) {
            return "Enum";
        }
        return isInterface(type) ? "Interface" : "Class";
    }

    /** {@code , extends X}, {@code , implements [Y](#y)}: the sections of the interfaces linked. */
    private String relations(TypeDeclaration<?> type) {
        if (!(type instanceof ClassOrInterfaceDeclaration c)) {
            return "";
        }
        String implemented = c.getImplementedTypes().stream()
                .map(t -> links.markdown(t.getNameAsString()).orElse(Markdown.code(t.getNameAsString())))
                .collect(Collectors.joining(", "));
        return implemented.isEmpty() ? "" : ", implements " + implemented;
    }

    /** {@code (Type a, Type b)}; with more than {@value #TYPED_PARAMETERS} parameters, {@code (a, b, ...)}. */
    static String signature(NodeList<Parameter> parameters) {
        boolean typed = parameters.size() <= TYPED_PARAMETERS;
        return parameters.stream()
                .map(p -> typed ? PropertyRows.typeOf(p) + " " + p.getNameAsString() : p.getNameAsString())
                .collect(Collectors.joining(", ", "(", ")"));
    }

    private static String[] parameterTypes(CallableDeclaration<?> c) {
        return c.getParameters().stream().map(Parameter::getTypeAsString).toArray(String[]::new);
    }

    private static boolean isInterface(TypeDeclaration<?> type) {
        return type instanceof ClassOrInterfaceDeclaration c && c.isInterface();
    }

    private String doc(BodyDeclaration<?> declaration) {
        return inline(JavaSources.description(declaration));
    }

    private String inline(Optional<JavadocDescription> doc) {
        return doc.map(d -> JavadocMarkdown.renderInline(d, links)).orElse("");
    }

    /** A bold title and a table, unless there are no rows. */
    private static void table(StringBuilder out, String title, List<String> header, List<List<String>> rows) {
        if (rows.isEmpty()) {
            return;
        }
        out.append("**").append(title).append("**\n\n").append(Markdown.header(header.toArray(String[]::new)));
        rows.forEach(r -> out.append(Markdown.row(r)));
        out.append('\n');
    }
}
