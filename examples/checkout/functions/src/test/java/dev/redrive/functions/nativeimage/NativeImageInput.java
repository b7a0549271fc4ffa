package dev.redrive.functions.nativeimage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * What native-image would be given for the functions: the directory Quarkus writes before it runs native-image
 * ({@code <name>-native-image-source-jar}: the runner jar and {@code lib/}, the native classpath), read the way
 * native-image reads it. Every {@code META-INF/native-image/**} configuration of every jar counts: the one Quarkus
 * generates into the runner jar and the ones libraries ship. Run-time initialization comes from the Feature Quarkus
 * generates (everything else is initialized at build time) and from the libraries' {@code native-image.properties}.
 */
final class NativeImageInput {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ARG_LIST = Pattern.compile("--initialize-at-(run|build)-time=([^\\s\\\\]+)");

    private final Path runnerJar;
    private final List<Path> classpath;
    /** Resource include patterns: regular expressions over resource paths. */
    private final List<Pattern> resourceIncludes = new ArrayList<>();
    /** Reflection entries by class name (the last entry wins; Quarkus writes one per class). */
    private final Map<String, JsonNode> reflection = new HashMap<>();

    private final Set<String> runTimeInitialized = new LinkedHashSet<>();
    private final Set<String> buildTimeInitialized = new LinkedHashSet<>();

    NativeImageInput(Path sourceJarDirectory) {
        try (Stream<Path> files = Files.list(sourceJarDirectory)) {
            this.runnerJar = files.filter(p -> p.getFileName().toString().endsWith("-runner.jar"))
                    .findFirst()
                    .orElseThrow(
                            () -> new IllegalStateException(
                                    "no *-runner.jar in " + sourceJarDirectory
                                            + ": run the native-metadata execution (./mvnw package -pl examples/checkout/functions -am)"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Path> jars = new ArrayList<>(List.of(runnerJar));
        try (Stream<Path> lib = Files.list(sourceJarDirectory.resolve("lib"))) {
            lib.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(jars::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.classpath = List.copyOf(jars);
        for (Path jar : classpath) {
            readConfiguration(jar);
        }
        runTimeInitialized.addAll(featureRunTimeClasses());
    }

    /** The runner jar first, then every jar of {@code lib/}. */
    List<Path> classpath() {
        return classpath;
    }

    /** Whether a resource include pattern admits {@code path} (as {@code ClassLoader.getResource} names it). */
    boolean includesResource(String path) {
        return resourceIncludes.stream().anyMatch(p -> p.matcher(path).matches());
    }

    /** The reflection registration of {@code className}, if any. */
    JsonNode reflection(String className) {
        return reflection.get(className);
    }

    /**
     * Whether native-image initializes {@code className} at run time: Quarkus initializes every class at build time
     * unless a run-time entry (a class, or a package that holds it) is more specific than any build-time entry.
     */
    boolean initializedAtRunTime(String className) {
        int runTime = longestMatch(runTimeInitialized, className);
        int buildTime = longestMatch(buildTimeInitialized, className);
        return runTime > buildTime;
    }

    private static int longestMatch(Set<String> entries, String className) {
        int longest = -1;
        for (String entry : entries) {
            if (className.equals(entry) || className.startsWith(entry + ".")) {
                longest = Math.max(longest, entry.length());
            }
        }
        return longest;
    }

    private void readConfiguration(Path jar) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                String name = entry.getName();
                if (!name.startsWith("META-INF/native-image/") || entry.isDirectory()) {
                    continue;
                }
                if (name.endsWith("resource-config.json")) {
                    resources(JSON.readTree(zip.getInputStream(entry)));
                } else if (name.endsWith("reflect-config.json")) {
                    for (JsonNode type : JSON.readTree(zip.getInputStream(entry))) {
                        reflection.put(type.path("name").asText(), type);
                    }
                } else if (name.endsWith("native-image.properties")) {
                    initialization(zip.getInputStream(entry));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + jar, e);
        }
    }

    private void resources(JsonNode config) {
        JsonNode includes = config.path("resources").isArray()
                ? config.path("resources")
                : config.path("resources").path("includes");
        for (JsonNode include : includes) {
            if (include.has("pattern")) {
                resourceIncludes.add(Pattern.compile(include.get("pattern").asText()));
            } else if (include.has("glob")) {
                resourceIncludes.add(glob(include.get("glob").asText()));
            }
        }
    }

    /** GraalVM globs: {@code *} within a path segment, {@code **} across segments. */
    private static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                regex.append(".*");
                i++;
            } else if (c == '*') {
                regex.append("[^/]*");
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }

    private void initialization(InputStream properties) throws IOException {
        Properties p = new Properties();
        p.load(properties);
        Matcher m = ARG_LIST.matcher(p.getProperty("Args", ""));
        while (m.find()) {
            Set<String> target = m.group(1).equals("run") ? runTimeInitialized : buildTimeInitialized;
            for (String name : m.group(2).split(",")) {
                if (!name.isBlank()) {
                    target.add(name.trim());
                }
            }
        }
    }

    /**
     * The classes Quarkus' generated {@code io.quarkus.runner.Feature} passes to
     * {@code RuntimeClassInitialization.initializeAtRunTime}: each is loaded by name ({@code ldc} of its name,
     * {@code Class.forName}) and added to the list that call receives. Read with javap, the JDK's disassembler.
     */
    private Set<String> featureRunTimeClasses() {
        Path classes;
        try (ZipFile zip = new ZipFile(runnerJar.toFile())) {
            ZipEntry feature = zip.getEntry("io/quarkus/runner/Feature.class");
            if (feature == null) {
                throw new IllegalStateException("no io/quarkus/runner/Feature.class in " + runnerJar);
            }
            classes = Files.createTempDirectory(runnerJar.getParent().getParent(), "feature");
            Path file = classes.resolve("Feature.class");
            try (InputStream in = zip.getInputStream(feature)) {
                Files.copy(in, file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ToolProvider javap = ToolProvider.findFirst("javap")
                .orElseThrow(() -> new IllegalStateException("javap is not in this JDK"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = javap.run(
                new PrintWriter(out),
                new PrintWriter(err),
                "-c",
                "-p",
                classes.resolve("Feature.class").toString());
        if (status != 0) {
            throw new IllegalStateException("javap failed: " + err);
        }
        String code = out.toString();
        if (!code.contains("RuntimeClassInitialization.initializeAtRunTime")) {
            throw new IllegalStateException("the generated Feature no longer calls initializeAtRunTime: read it again");
        }
        Set<String> names = new LinkedHashSet<>();
        String lastString = null;
        String loaded = null;
        for (String line : code.split("\n")) {
            int string = line.indexOf("// String ");
            if (line.contains(" ldc") && string >= 0) {
                lastString = line.substring(string + "// String ".length()).trim();
                loaded = null;
            } else if (line.contains("Method java/lang/Class.forName")) {
                loaded = lastString;
            } else if (line.contains("InterfaceMethod java/util/Collection.add") && loaded != null) {
                names.add(loaded);
                loaded = null;
            }
        }
        return names;
    }
}
