package dev.redrive.reference;

import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.ExplicitConstructorInvocationStmt;
import com.github.javaparser.javadoc.description.JavadocDescription;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The properties of a props or settings type, as its reference lists them. With a nested {@code Builder}: the
 * parameters of the factory that makes the builder (required; the construct's {@code scope} and {@code id} left out),
 * then each setter, its default read from the builder field it sets (the field's initializer; a constant it names
 * resolved to its value, or linked when its type has a section). A record without a builder: its components, a
 * component's default being its value in the record's {@code DEFAULT} constant, or the value a shorter public
 * constructor passes for it; else it is required. A setter without a doc comment is described by the record's
 * {@code @param} of the same name.
 */
final class PropertyRows {

    /** One property: its name, its type, its default (Markdown, {@code required} when it has none), its description. */
    record Row(String name, String type, String defaultText, String doc) {}

    private final CdkSources sources;
    private final Predicate<String> hasSection;
    private final JavadocMarkdown.Links links;

    PropertyRows(CdkSources sources, Predicate<String> hasSection, JavadocMarkdown.Links links) {
        this.sources = sources;
        this.hasSection = hasSection;
        this.links = links;
    }

    /** The rows of {@code type}: its builder's, else its record components', else none. */
    List<Row> of(TypeDeclaration<?> type) {
        Optional<ClassOrInterfaceDeclaration> builder = type.getMembers().stream()
                .filter(m -> m instanceof ClassOrInterfaceDeclaration c
                        && c.getNameAsString().equals("Builder"))
                .map(m -> (ClassOrInterfaceDeclaration) m)
                .filter(ClassOrInterfaceDeclaration::isPublic)
                .findFirst();
        if (builder.isPresent()) {
            return builderRows(type, builder.get());
        }
        return type instanceof RecordDeclaration r ? componentRows(r) : List.of();
    }

    /** The static method that makes the builder ({@code builder(...)} on the type, or {@code Builder.create(...)}). */
    static Optional<MethodDeclaration> factory(TypeDeclaration<?> type, ClassOrInterfaceDeclaration builder) {
        return java.util.stream.Stream.concat(type.getMethods().stream(), builder.getMethods().stream())
                .filter(m ->
                        m.isStatic() && m.isPublic() && m.getType().asString().endsWith("Builder"))
                .findFirst();
    }

    private List<Row> builderRows(TypeDeclaration<?> type, ClassOrInterfaceDeclaration builder) {
        List<Row> rows = new ArrayList<>();
        factory(type, builder).ifPresent(f -> {
            List<Parameter> parameters = f.getParameters();
            for (int i = 0; i < parameters.size(); i++) {
                Parameter p = parameters.get(i);
                boolean scopeAndId = p.getTypeAsString().equals("Construct")
                        || (i > 0 && parameters.get(i - 1).getTypeAsString().equals("Construct"));
                if (!scopeAndId) {
                    String name = p.getNameAsString();
                    Optional<JavadocDescription> doc =
                            JavaSources.param(type, name).or(() -> JavaSources.param(f, name));
                    rows.add(new Row(name, typeOf(p), "required", inline(doc)));
                }
            }
        });
        for (MethodDeclaration m : builder.getMethods()) {
            if (m.isPublic() && !m.isStatic() && m.getType().asString().equals("Builder")) {
                rows.add(setterRow(type, builder, m));
            }
        }
        return rows;
    }

    private Row setterRow(TypeDeclaration<?> type, ClassOrInterfaceDeclaration builder, MethodDeclaration setter) {
        Set<String> fields = builder.getFields().stream()
                .flatMap(f -> f.getVariables().stream())
                .map(VariableDeclarator::getNameAsString)
                .collect(Collectors.toSet());
        Set<String> assigned = new LinkedHashSet<>();
        setter.findAll(AssignExpr.class)
                .forEach(a -> fieldName(a.getTarget(), fields).ifPresent(assigned::add));
        boolean adds = setter.findAll(MethodCallExpr.class).stream()
                .anyMatch(c -> c.getScope().flatMap(s -> fieldName(s, fields)).isPresent()
                        && (c.getNameAsString().startsWith("add")
                                || c.getNameAsString().startsWith("put")));
        String defaultText;
        if (assigned.size() == 1) {
            defaultText = fieldDefault(builder, assigned.iterator().next());
        } else if (!assigned.isEmpty()) {
            defaultText = assigned.stream()
                    .map(f -> Markdown.code(f) + ": " + fieldDefault(builder, f))
                    .collect(Collectors.joining("; "));
        } else {
            defaultText = adds ? "none (each call adds one)" : "none";
        }
        String name = setter.getNameAsString();
        Optional<JavadocDescription> doc = JavaSources.description(setter)
                .or(() -> JavaSources.param(type, name))
                .or(() -> assigned.size() == 1
                        ? JavaSources.param(type, assigned.iterator().next())
                        : Optional.empty());
        boolean named = setter.getParameters().size() > 1;
        String types = setter.getParameters().stream()
                .map(p -> named ? typeOf(p) + " " + p.getNameAsString() : typeOf(p))
                .collect(Collectors.joining(", "));
        return new Row(name, types, defaultText, inline(doc));
    }

    private List<Row> componentRows(RecordDeclaration record) {
        List<Parameter> components = record.getParameters();
        List<Optional<Expression>> defaults = defaults(record, components.size());
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < components.size(); i++) {
            Parameter c = components.get(i);
            String defaultText = defaults.get(i).map(e -> resolved(e, record)).orElse("required");
            rows.add(new Row(
                    c.getNameAsString(),
                    typeOf(c),
                    defaultText,
                    inline(JavaSources.param(record, c.getNameAsString()))));
        }
        return rows;
    }

    /** Each component's default: its value in {@code DEFAULT}, or in a shorter constructor's {@code this(...)}. */
    private static List<Optional<Expression>> defaults(RecordDeclaration record, int size) {
        List<Optional<Expression>> defaults = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            defaults.add(Optional.empty());
        }
        record.getFieldByName("DEFAULT")
                .flatMap(f -> f.getVariable(0).getInitializer())
                .filter(Expression::isObjectCreationExpr)
                .map(Expression::asObjectCreationExpr)
                .map(ObjectCreationExpr::getArguments)
                .filter(args -> args.size() == size)
                .ifPresent(args -> {
                    for (int i = 0; i < size; i++) {
                        defaults.set(i, Optional.of(args.get(i)));
                    }
                });
        for (ConstructorDeclaration constructor : record.getConstructors()) {
            Set<String> parameters = constructor.getParameters().stream()
                    .map(Parameter::getNameAsString)
                    .collect(Collectors.toSet());
            constructor.findAll(ExplicitConstructorInvocationStmt.class).stream()
                    .filter(ExplicitConstructorInvocationStmt::isThis)
                    .filter(call -> call.getArguments().size() == size)
                    .forEach(call -> {
                        for (int i = 0; i < size; i++) {
                            Expression arg = call.getArgument(i);
                            if (!(arg instanceof NameExpr n && parameters.contains(n.getNameAsString()))) {
                                defaults.set(i, Optional.of(arg));
                            }
                        }
                    });
        }
        return defaults;
    }

    /** The default of the builder's field {@code name}: its initializer, or {@code not set}. */
    private String fieldDefault(ClassOrInterfaceDeclaration builder, String name) {
        return builder.getFieldByName(name)
                .flatMap(f -> f.getVariable(0).getInitializer())
                .map(e -> resolved(e, builder))
                .orElse("not set");
    }

    /**
     * An initializer as Markdown: its source; a constant it names, with the constant's value ({@code
     * RetryWindow.DEFAULT_MINIMUM} ({@code Duration.ofMinutes(15)})), or linked when the constant's type has a
     * section of its own.
     */
    private String resolved(Expression e, TypeDeclaration<?> context) {
        String text = Markdown.code(JavadocMarkdown.withoutPackages(e.toString()));
        if (e instanceof FieldAccessExpr access && access.getScope() instanceof NameExpr owner) {
            String type = owner.getNameAsString();
            if (hasSection.test(type)) {
                return "[" + text + "](#" + Markdown.slug(type) + ")";
            }
            return sources.type(type)
                    .flatMap(s -> constant(s.type(), access.getNameAsString()))
                    .map(value -> text + " (" + value + ")")
                    .orElse(text);
        }
        if (e instanceof NameExpr name) {
            Optional<TypeDeclaration<?>> outer =
                    context.findAncestor(TypeDeclaration.class).map(t -> (TypeDeclaration<?>) t);
            return constant(context, name.getNameAsString())
                    .or(() -> outer.flatMap(o -> constant(o, name.getNameAsString())))
                    .map(value -> text + " (" + value + ")")
                    .orElse(text);
        }
        return text;
    }

    /** The value of {@code type}'s static field {@code name}, as a code span. */
    private static Optional<String> constant(TypeDeclaration<?> type, String name) {
        return type.getFieldByName(name)
                .filter(FieldDeclaration::isStatic)
                .flatMap(f -> f.getVariable(0).getInitializer())
                .map(init -> Markdown.code(JavadocMarkdown.withoutPackages(init.toString())));
    }

    /** The field of the builder {@code e} names ({@code this.x} or {@code x}), if it names one. */
    private static Optional<String> fieldName(Expression e, Set<String> fields) {
        if (e instanceof FieldAccessExpr f && f.getScope() instanceof ThisExpr) {
            return Optional.of(f.getNameAsString()).filter(fields::contains);
        }
        return e instanceof NameExpr n ? Optional.of(n.getNameAsString()).filter(fields::contains) : Optional.empty();
    }

    /** A parameter's type as the reference shows it: packages left out, varargs as {@code ...}. */
    static String typeOf(Parameter p) {
        return JavadocMarkdown.withoutPackages(p.getTypeAsString()) + (p.isVarArgs() ? "..." : "");
    }

    private String inline(Optional<JavadocDescription> doc) {
        return doc.map(d -> JavadocMarkdown.renderInline(d, links)).orElse("");
    }
}
