package dev.redrive.functions.nativeimage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The classes the native configuration of a class path names: every {@code reflect-}, {@code jni-},
 * {@code serialization-} and {@code proxy-config.json} and {@code reachability-metadata.json} under
 * {@code META-INF/native-image/} of every jar (Quarkus' generated configuration in the runner jar, and the libraries'),
 * each name with the condition it is registered under. native-image passes over a name it cannot find with at most a
 * warning, so a class renamed by a library upgrade silently loses its registration; this lists them to check.
 */
final class NativeConfigurationNames {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A class named by a configuration file.
     *
     * @param jar       the jar that holds the file
     * @param file      the file's path in the jar
     * @param className the class named (an array as {@code X[]})
     * @param condition the class whose reachability the registration is conditional on, if any
     */
    record Named(String jar, String file, String className, Optional<String> condition) {
        @Override
        public String toString() {
            return className + " (" + jar + "!/" + file
                    + condition.map(c -> ", if " + c + " is reachable").orElse("") + ")";
        }
    }

    private NativeConfigurationNames() {}

    /** Every class named by the native configuration of {@code jars}. */
    static List<Named> in(List<Path> jars) {
        List<Named> names = new ArrayList<>();
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                    ZipEntry entry = e.nextElement();
                    String file = entry.getName();
                    if (!file.startsWith("META-INF/native-image/") || !file.endsWith(".json")) {
                        continue;
                    }
                    JsonNode config = JSON.readTree(zip.getInputStream(entry));
                    String jarName = jar.getFileName().toString();
                    List<JsonNode> types = new ArrayList<>();
                    if (file.endsWith("reachability-metadata.json")) {
                        for (String section : List.of("reflection", "jni", "serialization")) {
                            config.path(section).forEach(types::add);
                        }
                    } else if (file.endsWith("serialization-config.json") && config.isObject()) {
                        config.path("types").forEach(types::add);
                        config.path("lambdaCapturingTypes").forEach(types::add);
                    } else if (file.endsWith("proxy-config.json")) {
                        proxies(config, jarName, file, names);
                    } else if (file.endsWith("reflect-config.json")
                            || file.endsWith("jni-config.json")
                            || file.endsWith("serialization-config.json")) {
                        config.forEach(types::add);
                    }
                    for (JsonNode type : types) {
                        typeName(type).ifPresent(name -> names.add(new Named(jarName, file, name, condition(type))));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not read the native configuration of " + jar, e);
            }
        }
        return names;
    }

    private static void proxies(JsonNode config, String jar, String file, List<Named> names) {
        for (JsonNode proxy : config) {
            JsonNode interfaces = proxy.isArray() ? proxy : proxy.path("interfaces");
            for (JsonNode i : interfaces) {
                names.add(new Named(jar, file, i.asText(), condition(proxy)));
            }
        }
    }

    /** {@code name}, or the newer {@code type} (a string, or an object for proxies and lambdas, not checked). */
    private static Optional<String> typeName(JsonNode entry) {
        JsonNode name = entry.has("name") ? entry.get("name") : entry.path("type");
        return name.isTextual() ? Optional.of(name.asText()) : Optional.empty();
    }

    private static Optional<String> condition(JsonNode entry) {
        JsonNode condition = entry.path("condition");
        for (String kind : List.of("typeReachable", "typeReached")) {
            if (condition.path(kind).isTextual()) {
                return Optional.of(condition.get(kind).asText());
            }
        }
        return Optional.empty();
    }
}
