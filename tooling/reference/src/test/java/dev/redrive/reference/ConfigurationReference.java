package dev.redrive.reference;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.javadoc.description.JavadocDescription;
import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.ConfigMappingInterface;
import io.smallrye.config.ConfigMappings;
import io.smallrye.config.WithDefault;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The properties of a SmallRye {@code @ConfigMapping}, as its reference shows them: their names as SmallRye maps them
 * ({@link ConfigMappings#getProperties}: kebab case, {@code @WithName} and {@code @WithParentName} honoured, a map key
 * shown as {@code <key>}, the key named by the map's {@link ConfigDocMapKey}, else {@code <name>}), their types (an
 * {@code Optional<T>} as {@code T}, marked optional), their {@code @WithDefault} (the constant's value, as the compiler
 * resolved it), their environment variables and their doc comments, read from the mapping's source. Grouped as the
 * mapping nests its interfaces, in declaration order.
 */
final class ConfigurationReference {

    /** One property. */
    record Property(
            String name,
            String type,
            List<String> constants,
            boolean optional,
            Optional<String> defaultValue,
            String variable,
            String doc) {

        /** Its type as the reference shows it: {@code `Duration`}, {@code `String`, optional}, an enum's constants. */
        String typeText() {
            String constantsText = constants.isEmpty()
                    ? ""
                    : " (" + constants.stream().map(Markdown::code).collect(Collectors.joining(", ")) + ")";
            return Markdown.code(type) + constantsText + (optional ? ", optional" : "");
        }

        /** Its default as a code span, or {@code none}. */
        String defaultText() {
            return defaultValue.map(Markdown::code).orElse("none");
        }
    }

    /** One interface of the mapping: its properties, under {@code prefix}. */
    record Group(String prefix, String doc, List<Property> properties) {}

    /** A property found, before its doc comment is rendered (its links need every property's name). */
    private record Found(Class<?> type, Method method, String name, Optional<JavadocDescription> doc) {}

    private final CompilationUnit source;
    private final Map<Method, String> smallRyeNames = new HashMap<>();
    private final Map<Method, String> names = new HashMap<>();
    private final List<Group> groups = new ArrayList<>();
    private final List<String> undocumented = new ArrayList<>();

    private ConfigurationReference(Class<?> mapping, Path source) {
        this.source = JavaSources.parse(source);
        ConfigMappings.getProperties(ConfigMappings.ConfigClass.configClass(mapping))
                .forEach((name, property) -> {
                    if (!name.endsWith("[*]")) { // a list's elements, beside the list itself
                        smallRyeNames.merge(property.getMethod(), name, (a, b) -> {
                            throw new IllegalStateException(property.getMethod() + " is mapped twice (" + a + ", " + b
                                    + "): the reference shows each interface once");
                        });
                    }
                });
        List<Runnable> rendering = new ArrayList<>();
        walk(mapping, Optional.empty(), List.of(), rendering);
        rendering.forEach(Runnable::run);
    }

    /** The reference of {@code mapping}, whose source (with its nested interfaces) is {@code source}. */
    static ConfigurationReference of(Class<?> mapping, Path source) {
        if (mapping.getAnnotation(ConfigMapping.class) == null) {
            throw new IllegalArgumentException(mapping + " is not a @ConfigMapping");
        }
        return new ConfigurationReference(mapping, source);
    }

    /** The groups, the mapping's own properties first, then each nested interface where it is declared. */
    List<Group> groups() {
        return List.copyOf(groups);
    }

    /** Every property and group whose method has no doc comment, by name and method. */
    List<String> undocumented() {
        return List.copyOf(undocumented);
    }

    /**
     * Finds the properties of {@code type} in declaration order, and adds to {@code rendering} what makes its group,
     * ahead of the groups it nests: they are made once every property's name is known (a doc comment links to any).
     */
    private void walk(
            Class<?> type, Optional<JavadocDescription> accessorDoc, List<String> keys, List<Runnable> rendering) {
        TypeDeclaration<?> declaration = declaration(type);
        List<Found> found = new ArrayList<>();
        int at = rendering.size();
        for (MethodDeclaration m : declaration.getMethods()) {
            Method method = method(type, m.getNameAsString());
            ConfigMappingInterface.Property property = property(type, method);
            Optional<JavadocDescription> doc = JavaSources.description(m);
            Optional<Class<?>> nested = group(property);
            List<String> deeper = new ArrayList<>(keys);
            if (property.isMap()) {
                ConfigDocMapKey key = method.getAnnotation(ConfigDocMapKey.class);
                deeper.add(key == null ? "name" : key.value());
            }
            if (nested.isPresent()) {
                if (doc.isEmpty()) {
                    undocumented.add("group " + type.getSimpleName() + "#" + method.getName() + "()");
                }
                walk(nested.get(), doc, deeper, rendering);
            } else {
                String name = displayName(method, deeper);
                names.put(method, name);
                if (doc.isEmpty()) {
                    undocumented.add(name + " (" + type.getSimpleName() + "#" + method.getName() + "())");
                }
                found.add(new Found(type, method, name, doc));
            }
        }
        if (!found.isEmpty()) {
            rendering.add(
                    at,
                    () -> groups.add(new Group(
                            parent(found.get(0).name()),
                            sectionText(type, declaration, accessorDoc),
                            found.stream().map(this::property).toList())));
        }
    }

    private Property property(Found found) {
        Type returned = found.method().getGenericReturnType();
        boolean optional = returned instanceof ParameterizedType p && p.getRawType() == Optional.class;
        Type shown = optional ? ((ParameterizedType) returned).getActualTypeArguments()[0] : returned;
        WithDefault defaultValue = found.method().getAnnotation(WithDefault.class);
        List<String> constants = shown instanceof Class<?> c && c.isEnum()
                ? Arrays.stream(c.getEnumConstants())
                        .map(e -> ((Enum<?>) e).name())
                        .toList()
                : List.of();
        return new Property(
                found.name(),
                typeName(shown),
                constants,
                optional,
                Optional.ofNullable(defaultValue).map(WithDefault::value),
                variable(found.name()),
                found.doc()
                        .map(d -> JavadocMarkdown.render(d, links(found.type())))
                        .orElse(""));
    }

    /** The reference as Markdown, below {@code header} ({@link ConfigurationMarkdown}). */
    String markdown(String header) {
        return ConfigurationMarkdown.write(groups, header);
    }

    /**
     * The group's text: its accessor's doc comment, then its interface's; only the longer of the two when one begins
     * with the other's sentence.
     */
    private String sectionText(Class<?> type, TypeDeclaration<?> declaration, Optional<JavadocDescription> accessor) {
        JavadocMarkdown.Links links = links(type);
        Optional<String> member = accessor.map(d -> JavadocMarkdown.render(d, links));
        Optional<String> own = JavaSources.description(declaration).map(d -> JavadocMarkdown.render(d, links));
        if (member.isEmpty() || own.isEmpty()) {
            return member.or(() -> own).orElse("");
        }
        String a = member.get();
        String b = own.get();
        if (b.startsWith(a.replaceFirst("\\.$", ""))) {
            return b;
        }
        return a.startsWith(b.replaceFirst("\\.$", "")) ? a : a + "\n\n" + b;
    }

    /** The property's name as SmallRye maps it, each map key as {@code <key>}. */
    private String displayName(Method method, List<String> keys) {
        String name = smallRyeNames.get(method);
        if (name == null) {
            throw new IllegalStateException("SmallRye maps no property to " + method);
        }
        StringBuilder out = new StringBuilder();
        int key = 0;
        for (String segment : name.split("\\.", -1)) {
            out.append(out.length() == 0 ? "" : ".");
            out.append(segment.equals("*") ? "<" + keys.get(key++) + ">" : segment);
        }
        return out.toString();
    }

    /**
     * The environment variable of property {@code name}, by SmallRye's rule (upper case, every other character than a
     * letter or digit an underscore); a map key stays a placeholder, upper case: {@code <DEPENDENCY>}.
     */
    static String variable(String name) {
        return Arrays.stream(name.split("\\."))
                .map(s -> s.startsWith("<")
                        ? s.toUpperCase(java.util.Locale.ROOT).replace('-', '_')
                        : s.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_"))
                .collect(Collectors.joining("_"));
    }

    /** A type as the reference shows it: simple names ({@code List<String>}), an enum with its constants. */
    static String typeName(Type type) {
        if (type instanceof ParameterizedType p) {
            return typeName(p.getRawType()) + "<"
                    + Arrays.stream(p.getActualTypeArguments())
                            .map(ConfigurationReference::typeName)
                            .collect(Collectors.joining(", "))
                    + ">";
        }
        return type instanceof Class<?> c ? c.getSimpleName() : type.getTypeName();
    }

    /** Links to the mapping's own methods, from a doc comment in {@code context}: the property's section. */
    private JavadocMarkdown.Links links(Class<?> context) {
        return reference -> {
            int hash = reference.indexOf('#');
            if (hash < 0 || !reference.endsWith("()")) {
                return Optional.empty();
            }
            String owner = reference.substring(0, hash);
            String member = reference.substring(hash + 1, reference.length() - 2);
            return names.entrySet().stream()
                    .filter(e -> e.getKey().getName().equals(member))
                    .filter(e -> owner.isEmpty()
                            ? e.getKey().getDeclaringClass() == context
                            : e.getKey().getDeclaringClass().getSimpleName().equals(owner))
                    .map(e -> "[" + Markdown.code(e.getValue()) + "](#" + Markdown.slug(e.getValue()) + ")")
                    .findFirst();
        };
    }

    private TypeDeclaration<?> declaration(Class<?> type) {
        return JavaSources.type(source, type.getSimpleName())
                .orElseThrow(() -> new IllegalStateException(type + " is not declared in the mapping's source"));
    }

    private static Method method(Class<?> type, String name) {
        try {
            return type.getMethod(name);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type + " declares " + name + " with parameters: not a property", e);
        }
    }

    private static ConfigMappingInterface.Property property(Class<?> type, Method method) {
        return Arrays.stream(
                        ConfigMappingInterface.getConfigurationInterface(type).getProperties())
                .filter(p -> p.getMethod().equals(method))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("SmallRye sees no property " + method));
    }

    /** The interface a group property (or a map of groups) nests, if it is one. */
    private static Optional<Class<?>> group(ConfigMappingInterface.Property property) {
        ConfigMappingInterface.Property p =
                property.isOptional() ? property.asOptional().getNestedProperty() : property;
        if (p.isMap()) {
            p = p.asMap().getValueProperty();
        }
        return p.isGroup() ? Optional.of(p.asGroup().getGroupType().getInterfaceType()) : Optional.empty();
    }

    private static String parent(String name) {
        return name.substring(0, name.lastIndexOf('.'));
    }
}
