package dev.redrive.localrun.lambda;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The packaged functions, run the way Lambda runs them: the native {@code bootstrap} executable when one was built
 * ({@code provided.al2023}), else the JVM jar under AWS's own runtime interface client — the same client AWS's
 * managed {@code java21} runtime uses — with Quarkus' standard stream handler. Nothing in the artifact exists for
 * local runs.
 */
public record FunctionArtifact(String kind, Path executable, String classpath) {

    static final String JVM_HANDLER = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";
    static final String RIC_MAIN = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";

    /** Finds the artifact in {@code functionsTarget} (the functions module's {@code target} directory). */
    public static FunctionArtifact find(Path functionsTargetDir) {
        // Absolute: every sandbox runs in a folder of its own, where a relative path would point elsewhere.
        Path functionsTarget = functionsTargetDir.toAbsolutePath().normalize();
        Optional<Path> nativeRunner = list(functionsTarget)
                .filter(p -> p.getFileName().toString().endsWith("-runner")
                        && Files.isExecutable(p)
                        && Files.isRegularFile(p))
                .findFirst();
        if (nativeRunner.isPresent()) {
            return new FunctionArtifact("native", nativeRunner.get(), "");
        }
        Path jar = list(functionsTarget)
                .filter(p -> p.getFileName().toString().endsWith("-runner.jar"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no packaged functions in " + functionsTarget
                        + ": build them first with  ./mvnw -pl examples/checkout/functions -am package -DskipTests"));
        return new FunctionArtifact("jvm", jar, jar + File.pathSeparator + runtimeInterfaceClientClasspath());
    }

    /**
     * A plain Java function's own code, {@code jar} (a self-contained jar, as a CDK asset holds it), run under AWS's
     * runtime interface client with the function's {@code Handler}.
     */
    public static FunctionArtifact ofJar(Path jar) {
        Path absolute = jar.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute)) {
            throw new IllegalStateException("no function code at " + absolute);
        }
        return new FunctionArtifact("jvm", absolute, absolute + File.pathSeparator + runtimeInterfaceClientClasspath());
    }

    /** Whether this is a native executable (no JVM, no class-data archive). */
    public boolean isNative() {
        return "native".equals(kind);
    }

    /**
     * The command that starts one sandbox of a function of {@code memoryMb}: the native executable as is, or the JVM
     * with the {@code java21} runtime's flags under AWS's runtime interface client.
     */
    public List<String> command(ManagedJavaRuntime runtime, int memoryMb, Path sandboxTmp) {
        return command(runtime, memoryMb, sandboxTmp, JVM_HANDLER);
    }

    /**
     * As {@link #command(ManagedJavaRuntime, int, Path)}, for the function's {@code handler} setting (the managed
     * runtime passes the function's {@code Handler} to the runtime interface client as its argument).
     */
    public List<String> command(ManagedJavaRuntime runtime, int memoryMb, Path sandboxTmp, String handler) {
        if ("native".equals(kind)) {
            return List.of(executable.toString());
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(runtime.jvmFlags(memoryMb, sandboxTmp));
        command.add("-cp");
        command.add(classpath);
        command.add(RIC_MAIN);
        command.add(handler);
        return List.copyOf(command);
    }

    /**
     * Why a sandbox of this artifact cannot start {@code handler}, or empty when it can: a missing executable, a
     * class-path entry that does not exist, or a handler class the class path does not hold. The runtime interface
     * client does not fail its start for a missing handler class: it polls, and answers every invocation with "Class
     * not found" (as Lambda does), so without this check a run would dead-letter everything instead of stopping.
     */
    public Optional<String> startProblem(String handler) {
        if (!Files.exists(executable)) {
            return Optional.of("the artifact " + executable + " does not exist");
        }
        if ("native".equals(kind)) {
            return Files.isExecutable(executable)
                    ? Optional.empty()
                    : Optional.of("the native executable " + executable + " is not executable");
        }
        List<URL> urls = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (!path.isAbsolute() || !Files.exists(path)) {
                return Optional.of("the class path entry " + entry + " does not exist (or is not absolute)");
            }
            try {
                urls.add(path.toUri().toURL());
            } catch (java.net.MalformedURLException e) {
                return Optional.of("the class path entry " + entry + " is not a path: " + e.getMessage());
            }
        }
        String handlerClass = handler.contains("::") ? handler.substring(0, handler.indexOf("::")) : handler;
        try (URLClassLoader loader =
                new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class.forName(handlerClass, false, loader);
            return Optional.empty();
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.of(
                    "the handler class " + handlerClass + " is not on the class path " + classpath + " (" + e + ")");
        } catch (IOException e) {
            return Optional.of("could not read the class path " + classpath + ": " + e.getMessage());
        }
    }

    /**
     * The runtime interface client and its dependencies, from this program's own classpath (the plain class path,
     * or the directory the client's jar was loaded from when this program runs as {@code java -jar}).
     */
    static String runtimeInterfaceClientClasspath() {
        List<String> candidates =
                new ArrayList<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        try {
            Path ric = Path.of(Class.forName(RIC_MAIN)
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            list(ric.getParent()).forEach(p -> candidates.add(p.toString()));
        } catch (ClassNotFoundException | java.net.URISyntaxException | RuntimeException e) {
            // not loadable: the check below names what is missing
        }
        List<String> jars = new ArrayList<>();
        for (String entry : candidates) {
            if (!entry.endsWith(".jar")) {
                continue;
            }
            entry = Path.of(entry).toAbsolutePath().normalize().toString();
            if (jars.contains(entry)) {
                continue;
            }
            String name = Path.of(entry).getFileName().toString();
            if (name.startsWith("aws-lambda-java-runtime-interface-client")
                    || name.startsWith("aws-lambda-java-core")
                    || name.startsWith("aws-lambda-java-serialization")
                    || name.startsWith("utils-lite")
                    || name.startsWith("annotations-")) {
                jars.add(entry);
            }
        }
        if (jars.stream().noneMatch(j -> j.contains("aws-lambda-java-runtime-interface-client"))) {
            throw new IllegalStateException("aws-lambda-java-runtime-interface-client is not on the classpath");
        }
        return String.join(File.pathSeparator, jars);
    }

    private static Stream<Path> list(Path dir) {
        try {
            return Files.list(dir).sorted();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot read " + dir + ": build the functions first with  "
                            + "./mvnw -pl examples/checkout/functions -am package -DskipTests",
                    e);
        }
    }
}
