package dev.redrive.functions.nativeimage;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The classes Jackson needs by reflection to (de)serialize some root types: the types it binds (the roots and, within
 * the packages given, the types of their fields, record components and getters, generic arguments included), and the
 * classes their annotations make it instantiate: the {@code using}, {@code contentUsing}, {@code keyUsing} and
 * converter classes of {@code @JsonSerialize}/{@code @JsonDeserialize}, and the filters of
 * {@code @JsonInclude(valueFilter, contentFilter)}. Read from the classes themselves, so a new annotation is found
 * without editing a list.
 */
final class JacksonReflection {

    /** Why a class is needed: bound as data, or instantiated as a helper (needs only its constructor). */
    enum Use {
        BOUND,
        INSTANTIATED
    }

    record Needed(Class<?> type, Use use, String reason) {}

    private final List<String> dataPackages;
    private final Set<Class<?>> seen = new LinkedHashSet<>();
    private final Set<Needed> needed = new LinkedHashSet<>();
    private final Deque<Class<?>> queue = new ArrayDeque<>();

    private JacksonReflection(List<String> dataPackages) {
        this.dataPackages = dataPackages;
    }

    /** What Jackson needs for {@code roots}, following bound types inside {@code dataPackages}. */
    static Set<Needed> of(List<Class<?>> roots, List<String> dataPackages) {
        JacksonReflection walk = new JacksonReflection(dataPackages);
        for (Class<?> root : roots) {
            walk.bound(root, "a root");
        }
        while (!walk.queue.isEmpty()) {
            walk.visit(walk.queue.poll());
        }
        return walk.needed;
    }

    private void bound(Class<?> type, String reason) {
        if (seen.add(type)) {
            needed.add(new Needed(type, Use.BOUND, reason));
            queue.add(type);
        }
    }

    private void visit(Class<?> type) {
        annotations(type, type.getName());
        for (Field f : type.getDeclaredFields()) {
            if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                annotations(f, type.getName() + "." + f.getName());
                follow(f.getGenericType(), type.getName() + "." + f.getName());
            }
        }
        if (type.isRecord()) {
            for (RecordComponent c : type.getRecordComponents()) {
                follow(c.getGenericType(), type.getName() + "." + c.getName());
            }
        }
        for (Method m : type.getDeclaredMethods()) {
            annotations(m, type.getName() + "." + m.getName() + "()");
            if (m.getParameterCount() == 0 && m.getName().startsWith("get") && !m.isSynthetic()) {
                follow(m.getGenericReturnType(), type.getName() + "." + m.getName() + "()");
            }
        }
    }

    private void follow(Type type, String where) {
        if (type instanceof Class<?> c) {
            Class<?> element = c.isArray() ? c.getComponentType() : c;
            if (inDataPackage(element) && !element.isPrimitive()) {
                bound(element, "the type of " + where);
            }
        } else if (type instanceof ParameterizedType p) {
            follow(p.getRawType(), where);
            for (Type argument : p.getActualTypeArguments()) {
                follow(argument, where);
            }
        } else if (type instanceof GenericArrayType a) {
            follow(a.getGenericComponentType(), where);
        }
    }

    private boolean inDataPackage(Class<?> c) {
        String name = c.getName();
        return dataPackages.stream().anyMatch(p -> name.startsWith(p + "."));
    }

    private void annotations(AnnotatedElement element, String where) {
        for (Annotation a : element.getDeclaredAnnotations()) {
            if (a instanceof JsonSerialize s) {
                helpers(where + " @JsonSerialize", s.using(), s.contentUsing(), s.keyUsing(), s.nullsUsing());
                helpers(where + " @JsonSerialize converter", s.converter(), s.contentConverter());
            } else if (a instanceof JsonDeserialize d) {
                helpers(where + " @JsonDeserialize", d.using(), d.contentUsing(), d.keyUsing(), d.builder());
                helpers(where + " @JsonDeserialize converter", d.converter(), d.contentConverter());
            } else if (a instanceof JsonInclude i) {
                helpers(where + " @JsonInclude", i.valueFilter(), i.contentFilter());
            }
        }
    }

    private void helpers(String where, Class<?>... classes) {
        for (Class<?> c : classes) {
            if (!isNone(c) && seen.add(c)) {
                needed.add(new Needed(c, Use.INSTANTIATED, "named by " + where));
            }
        }
    }

    /** Jackson's "not set" markers: {@code Void}, and the nested {@code None} classes. */
    private static boolean isNone(Class<?> c) {
        return c == Void.class
                || c == Object.class
                || c.getSimpleName().equals("None")
                || c.getName().endsWith("NoClass");
    }
}
