package dev.redrive.functions.nativeimage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The GraalVM substitutions of a native class path (every class annotated {@code @TargetClass}, the libraries' and
 * Quarkus' generated ones alike), read from their class files, and their targets resolved the way native-image's
 * {@code AnnotationSubstitutionProcessor.findTargetClass} (GraalVM 25) resolves them, without GraalVM: a {@code value}
 * class first, which must exist whatever {@code onlyWith} says (native-image reads the annotation's {@code value()}
 * before it evaluates {@code onlyWith}, so a missing class stops the build with a {@code TypeNotPresentException});
 * else the {@code classNameProvider}'s or the {@code className}'s name; then every {@code onlyWith} predicate
 * (a {@code BooleanSupplier}, or a {@code Predicate<String>} of the target's name), any false one making the
 * substitution inactive; then the named class, which must load ("Substitution target for … is not loaded"); then its
 * {@code innerClass} path. The annotation types are not on the class path (native-image brings them), so the class
 * files are read with ASM and nothing of a substitution class is loaded; its predicates are instantiated, as
 * native-image does, in the class loader of the native class path.
 */
final class SubstitutionTargets {

    static final String TARGET_CLASS = "Lcom/oracle/svm/core/annotate/TargetClass;";
    static final String PLATFORMS = "Lorg/graalvm/nativeimage/Platforms;";

    /**
     * One {@code @TargetClass} as its class file declares it.
     *
     * @param jar               the jar that holds it
     * @param substitution      the annotated class
     * @param value             the {@code value} class, if set
     * @param className         the {@code className}, if set
     * @param classNameProvider the {@code classNameProvider} class, if set
     * @param innerClass        the {@code innerClass} path
     * @param onlyWith          the {@code onlyWith} predicate classes
     * @param platforms         whether the class is also annotated {@code @Platforms}
     * @param members           its members that stand for members of the target ({@code @Alias}, {@code @Substitute},
     *                          {@code @Delete}, {@code @AnnotateOriginal}, {@code @KeepOriginal})
     */
    record Substitution(
            String jar,
            String substitution,
            Optional<String> value,
            Optional<String> className,
            Optional<String> classNameProvider,
            List<String> innerClass,
            List<String> onlyWith,
            boolean platforms,
            List<Member> members) {

        @Override
        public String toString() {
            return substitution + " (" + jar + ")";
        }
    }

    /**
     * A member of a substitution that names a member of the target: a field, or a method or constructor
     * ({@code <init>}) with its parameter count ({@code -1} for a field).
     *
     * @param name       the target member's name ({@code @TargetElement(name)} or the member's own)
     * @param parameters the number of parameters, {@code -1} for a field
     * @param onlyWith   the {@code @TargetElement(onlyWith)} predicates
     */
    record Member(String name, int parameters, List<String> onlyWith) {
        @Override
        public String toString() {
            return parameters < 0 ? "field " + name : "method " + name + " with " + parameters + " parameter(s)";
        }
    }

    private static final Set<String> MEMBER_ANNOTATIONS = Set.of(
            "Lcom/oracle/svm/core/annotate/Alias;",
            "Lcom/oracle/svm/core/annotate/Substitute;",
            "Lcom/oracle/svm/core/annotate/Delete;",
            "Lcom/oracle/svm/core/annotate/AnnotateOriginal;",
            "Lcom/oracle/svm/core/annotate/KeepOriginal;");
    private static final String TARGET_ELEMENT = "Lcom/oracle/svm/core/annotate/TargetElement;";

    /** What native-image does with a substitution. */
    sealed interface Outcome {
        /** Applied to {@code target}. */
        record Applied(Class<?> target) implements Outcome {}

        /** Skipped: the {@code onlyWith} predicate {@code predicate} is false here. */
        record Inactive(String predicate) implements Outcome {}

        /** The build stops: {@code why}. */
        record Fails(String why) implements Outcome {}

        /** Not decidable without GraalVM: it names {@code provided}, a class of native-image itself. */
        record ProvidedByNativeImage(String provided) implements Outcome {}
    }

    /** The packages of native-image's own classes: on its class path, never on the application's. */
    static final List<String> NATIVE_IMAGE_PACKAGES =
            List.of("com.oracle.svm.", "com.oracle.graal.", "jdk.graal.", "org.graalvm.");

    private SubstitutionTargets() {}

    /** Every {@code @TargetClass} class of {@code jars}. */
    static List<Substitution> in(List<Path> jars) {
        List<Substitution> found = new ArrayList<>();
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                    ZipEntry entry = e.nextElement();
                    if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                        try (InputStream in = zip.getInputStream(entry)) {
                            read(jar.getFileName().toString(), in.readAllBytes())
                                    .ifPresent(found::add);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + jar, e);
            }
        }
        return found;
    }

    /** The {@code @TargetClass} of one class file, if it has one. */
    static Optional<Substitution> read(String jar, byte[] classFile) {
        TargetClassReader reader = new TargetClassReader();
        new ClassReader(classFile)
                .accept(reader, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        if (!reader.annotated) {
            return Optional.empty();
        }
        return Optional.of(new Substitution(
                jar,
                reader.name,
                Optional.ofNullable(reader.value),
                Optional.ofNullable(reader.className),
                Optional.ofNullable(reader.classNameProvider),
                List.copyOf(reader.innerClass),
                List.copyOf(reader.onlyWith),
                reader.platforms,
                List.copyOf(reader.members)));
    }

    /** Resolves {@code s} against the classes {@code loader} sees, as native-image would. */
    static Outcome resolve(Substitution s, ClassLoader loader) {
        Optional<String> provided = providedByNativeImage(s);
        if (provided.isPresent()) {
            return new Outcome.ProvidedByNativeImage(provided.get());
        }
        String name;
        Class<?> holder = null;
        if (s.value().isPresent()) {
            if (s.className().isPresent() || s.classNameProvider().isPresent()) {
                return new Outcome.Fails("both a class and a class name are given for the substitution");
            }
            try {
                holder = Class.forName(s.value().get(), false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return new Outcome.Fails("its value class " + s.value().get() + " is not on the native class path (" + e
                        + "): native-image stops with TypeNotPresentException before it looks at onlyWith");
            }
            name = holder.getName();
        } else if (s.classNameProvider().isPresent()) {
            try {
                Function<?, ?> provider =
                        (Function<?, ?>) instantiate(s.classNameProvider().get(), loader);
                name = String.valueOf(provider.apply(null));
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                return new Outcome.Fails(
                        "its classNameProvider " + s.classNameProvider().get() + " cannot be applied here: " + e);
            }
        } else if (s.className().isPresent()) {
            name = s.className().get();
        } else {
            return new Outcome.Fails("neither a class, a class name nor a classNameProvider is given");
        }
        for (String predicate : s.onlyWith()) {
            Object condition;
            try {
                condition = instantiate(predicate, loader);
            } catch (ReflectiveOperationException | LinkageError e) {
                return new Outcome.Fails("its onlyWith " + predicate + " cannot be loaded or instantiated: " + e);
            }
            boolean active;
            if (condition instanceof BooleanSupplier supplier) {
                active = supplier.getAsBoolean();
            } else if (condition instanceof Predicate<?> test) {
                @SuppressWarnings("unchecked")
                Predicate<String> byName = (Predicate<String>) test;
                active = byName.test(name);
            } else {
                return new Outcome.Fails("its onlyWith " + predicate + " is neither a BooleanSupplier nor a Predicate");
            }
            if (!active) {
                return new Outcome.Inactive(predicate);
            }
        }
        if (holder == null) {
            try {
                holder = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return new Outcome.Fails("its target " + name + " is not on the native class path (" + e
                        + "): native-image stops with \"Substitution target for " + s.substitution()
                        + " is not loaded\"");
            }
        }
        for (String inner : s.innerClass()) {
            Class<?> outer = holder;
            holder = null;
            for (Class<?> c : outer.getDeclaredClasses()) {
                if (c.getSimpleName().equals(inner)) {
                    holder = c;
                }
            }
            if (holder == null) {
                return new Outcome.Fails("its target's inner class " + inner + " is not in " + outer.getName());
            }
        }
        return new Outcome.Applied(holder);
    }

    private static Optional<String> providedByNativeImage(Substitution s) {
        List<String> named = new ArrayList<>(s.onlyWith());
        s.value().ifPresent(named::add);
        s.className().ifPresent(named::add);
        s.classNameProvider().ifPresent(named::add);
        return named.stream()
                .filter(n -> NATIVE_IMAGE_PACKAGES.stream().anyMatch(n::startsWith))
                .findFirst();
    }

    private static Object instantiate(String className, ClassLoader loader) throws ReflectiveOperationException {
        Constructor<?> constructor = Class.forName(className, false, loader).getDeclaredConstructor();
        constructor.setAccessible(true);
        return constructor.newInstance();
    }

    /** Collects the {@code @TargetClass} (and whether there is a {@code @Platforms}) of one class. */
    private static final class TargetClassReader extends ClassVisitor {
        String name;
        boolean annotated;
        boolean platforms;
        String value;
        String className;
        String classNameProvider;
        final List<String> innerClass = new ArrayList<>();
        final List<String> onlyWith = new ArrayList<>();
        final List<Member> members = new ArrayList<>();

        TargetClassReader() {
            super(Opcodes.ASM9);
        }

        @Override
        public void visit(
                int version, int access, String name, String signature, String superName, String[] interfaces) {
            this.name = name.replace('/', '.');
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            MemberReader member = new MemberReader(name, -1);
            return new FieldVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    return member.annotation(annotation);
                }

                @Override
                public void visitEnd() {
                    member.end(members);
                }
            };
        }

        @Override
        public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] exceptions) {
            MemberReader member = new MemberReader(name, Type.getArgumentTypes(descriptor).length);
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    return member.annotation(annotation);
                }

                @Override
                public void visitEnd() {
                    member.end(members);
                }
            };
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            if (PLATFORMS.equals(descriptor)) {
                platforms = true;
            }
            if (!TARGET_CLASS.equals(descriptor)) {
                return null;
            }
            annotated = true;
            return new AnnotationVisitor(Opcodes.ASM9) {
                @Override
                public void visit(String element, Object v) {
                    switch (element) {
                        case "value" -> value = ((Type) v).getClassName();
                        case "className" -> className = (String) v;
                        case "classNameProvider" -> classNameProvider = ((Type) v).getClassName();
                        default -> {}
                    }
                }

                @Override
                public AnnotationVisitor visitArray(String element) {
                    return new AnnotationVisitor(Opcodes.ASM9) {
                        @Override
                        public void visit(String unused, Object v) {
                            if ("innerClass".equals(element)) {
                                innerClass.add((String) v);
                            } else if ("onlyWith".equals(element)) {
                                onlyWith.add(((Type) v).getClassName());
                            }
                        }
                    };
                }
            };
        }
    }

    /** The substitution annotations of one member. */
    private static final class MemberReader {
        private final String ownName;
        private final int parameters;
        private boolean substitutes;
        private String targetName;
        private final List<String> onlyWith = new ArrayList<>();

        MemberReader(String ownName, int parameters) {
            this.ownName = ownName;
            this.parameters = parameters;
        }

        AnnotationVisitor annotation(String descriptor) {
            if (MEMBER_ANNOTATIONS.contains(descriptor)) {
                substitutes = true;
            }
            if (!TARGET_ELEMENT.equals(descriptor)) {
                return null;
            }
            return new AnnotationVisitor(Opcodes.ASM9) {
                @Override
                public void visit(String element, Object v) {
                    if ("name".equals(element)) {
                        targetName = (String) v;
                    }
                }

                @Override
                public AnnotationVisitor visitArray(String element) {
                    return new AnnotationVisitor(Opcodes.ASM9) {
                        @Override
                        public void visit(String unused, Object v) {
                            if ("onlyWith".equals(element)) {
                                onlyWith.add(((Type) v).getClassName());
                            }
                        }
                    };
                }
            };
        }

        void end(List<Member> members) {
            if (substitutes) {
                String name = targetName == null || targetName.isEmpty() ? ownName : targetName;
                members.add(new Member(name, parameters, List.copyOf(onlyWith)));
            }
        }
    }

    /**
     * The members of {@code s} that its applied {@code target} lacks, as native-image would report them ("could not
     * find target"): each active member is looked up by name, and a method by its number of parameters (parameter
     * types are not compared: they may be substitution types); methods among the target's own, fields among its own
     * and inherited ones. Read from the target's class file, so a member whose
     * signature names a class that is absent does not hide the others.
     */
    static List<String> missingMembers(Substitution s, Class<?> target, ClassLoader loader) {
        List<String> declared = declaredMembers(target);
        // an instance field is looked up among the inherited ones too (ResolvedJavaType.getInstanceFields(true))
        for (Class<?> c = target.getSuperclass(); c != null; c = c.getSuperclass()) {
            declaredMembers(c).stream().filter(m -> m.endsWith("/-1")).forEach(declared::add);
        }
        List<String> missing = new ArrayList<>();
        for (Member m : s.members()) {
            if (!active(m, loader)) {
                continue;
            }
            String key = m.name() + "/" + m.parameters();
            if (!declared.contains(key)) {
                missing.add(s + ": its " + m + " is not in " + target.getName());
            }
        }
        return missing;
    }

    private static boolean active(Member m, ClassLoader loader) {
        for (String predicate : m.onlyWith()) {
            try {
                Object condition = instantiate(predicate, loader);
                if (condition instanceof BooleanSupplier supplier && !supplier.getAsBoolean()) {
                    return false;
                }
            } catch (ReflectiveOperationException | LinkageError e) {
                return false; // native-image's own predicates (the JDK version, the platform): not decidable here
            }
        }
        return true;
    }

    /** {@code name/parameters} of every field ({@code -1}) and method of {@code type}'s class file. */
    private static List<String> declaredMembers(Class<?> type) {
        String resource = "/" + type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no class file " + resource + " for " + type);
            }
            List<String> members = new ArrayList<>();
            new ClassReader(in.readAllBytes())
                    .accept(
                            new ClassVisitor(Opcodes.ASM9) {
                                @Override
                                public FieldVisitor visitField(
                                        int access, String name, String descriptor, String signature, Object value) {
                                    members.add(name + "/-1");
                                    return null;
                                }

                                @Override
                                public MethodVisitor visitMethod(
                                        int access,
                                        String name,
                                        String descriptor,
                                        String signature,
                                        String[] exceptions) {
                                    members.add(name + "/" + Type.getArgumentTypes(descriptor).length);
                                    return null;
                                }
                            },
                            ClassReader.SKIP_CODE);
            return members;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + resource, e);
        }
    }
}
