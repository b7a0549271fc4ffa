package dev.redrive.functions.it;

import io.quarkus.test.common.ArtifactLauncher;
import io.quarkus.test.common.ListeningAddress;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Runs the packaged JVM jar as Lambda's managed {@code java21} runtime does: AWS's runtime interface client (the one
 * that runtime uses) loads {@code QuarkusStreamHandler}, which boots the application, and polls the Runtime API at
 * {@code AWS_LAMBDA_RUNTIME_API} (here Quarkus' mock event server, started by the test on a free port). The process'
 * output goes to the test's standard output, line by line, where the tests read the EMF lines.
 */
final class RuntimeInterfaceClientLauncher implements ArtifactLauncher<ArtifactLauncher.InitContext> {

    static final String HANDLER = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";
    private static final String RIC_MAIN = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";
    private static final String RUNTIME_API = "quarkus-internal.aws-lambda.test-api";
    private static final long START_TIMEOUT_SECONDS = 180;

    private final Path jar;
    private final Path work;
    private final Map<String, String> properties = new TreeMap<>();
    private Process process;
    private DeadlineHeaderProxy runtimeApiProxy;

    RuntimeInterfaceClientLauncher(Path jar, Path buildOutput, Map<String, String> devServices) {
        this.jar = jar;
        this.work = buildOutput.resolve("lambda-it");
        this.properties.putAll(devServices);
    }

    @Override
    public void init(InitContext context) {
        // configured by the provider
    }

    @Override
    public void includeAsSysProps(Map<String, String> systemProps) {
        properties.putAll(systemProps);
    }

    @Override
    public Optional<ListeningAddress> start() throws IOException {
        String runtimeApi = properties.get(RUNTIME_API);
        if (runtimeApi == null) {
            throw new IllegalStateException("no " + RUNTIME_API + ": the mock event server did not start");
        }
        Files.createDirectories(work);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:+TieredCompilation"); // the stack's JAVA_TOOL_OPTIONS for the java21 runtime
        command.add("-XX:TieredStopAtLevel=1");
        // the client's JNI library, unpacked under target/ (the java21 runtime has it installed; unpacked by the
        // client itself it would go to /tmp/.libaws-lambda-jni.so, shared by every build on the machine)
        command.add(
                "-Dcom.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI=" + unpackJniLibrary());
        command.add("-Dquarkus.profile=" + properties.getOrDefault("quarkus.profile", "prod"));
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-cp");
        command.add(jar + File.pathSeparator + runtimeInterfaceClientClasspath());
        command.add(RIC_MAIN);
        command.add(HANDLER);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        // the mock server's address would do, but it sends no deadline; the proxy adds it, as Lambda would
        runtimeApiProxy = new DeadlineHeaderProxy(runtimeApi.replace("/_lambda_", ""));
        env.put("AWS_LAMBDA_RUNTIME_API", runtimeApiProxy.address() + "/_lambda_");
        env.put("AWS_LAMBDA_FUNCTION_NAME", "redrive-it");
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "1024");
        env.put("_HANDLER", HANDLER);
        process = builder.start();
        CountDownLatch started = new CountDownLatch(1);
        Thread output = new Thread(() -> drain(started), "lambda-it-output");
        output.setDaemon(true);
        output.start();
        try {
            boolean up = started.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!up || !process.isAlive()) {
                close();
                throw new IllegalStateException("the packaged function did not start under the runtime interface "
                        + "client within " + START_TIMEOUT_SECONDS + " s (see its output above)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while the function started", e);
        }
        return Optional.empty();
    }

    /**
     * Copies the output to the test's current standard output and opens the latch once Quarkus says it started, or
     * the client says it failed.
     */
    private void drain(CountDownLatch started) {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                System.out.println(line);
                if (line.contains(" started in ")) {
                    started.countDown();
                } else if (line.startsWith("Exception in thread \"main\"")) {
                    process.destroy();
                    started.countDown();
                }
            }
        } catch (IOException e) {
            // the process went away
        } finally {
            started.countDown();
        }
    }

    /** The runtime interface client and what it needs, from this test JVM's class path (a test dependency). */
    private static String runtimeInterfaceClientClasspath() {
        List<String> jars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            if (name.startsWith("aws-lambda-java-runtime-interface-client")
                    || name.startsWith("aws-lambda-java-serialization")) {
                jars.add(entry);
            }
        }
        runtimeInterfaceClientJar(jars);
        return String.join(File.pathSeparator, jars);
    }

    private static Path runtimeInterfaceClientJar(List<String> jars) {
        return jars.stream()
                .filter(j -> j.contains("runtime-interface-client"))
                .map(Path::of)
                .findFirst()
                .orElseThrow(() ->
                        new IllegalStateException("aws-lambda-java-runtime-interface-client is not on the class path"));
    }

    /** The client's glibc JNI library for this machine, copied out of its jar into target/lambda-it. */
    private Path unpackJniLibrary() throws IOException {
        String arch = System.getProperty("os.arch").equals("aarch64") ? "aarch_64" : "x86_64";
        String entry = "jni/libaws-lambda-jni.linux-" + arch + ".so";
        Path target = work.resolve("libaws-lambda-jni.so");
        List<String> classpath = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
        try (ZipFile jar = new ZipFile(runtimeInterfaceClientJar(classpath).toFile())) {
            ZipEntry library = jar.getEntry(entry);
            if (library == null) {
                throw new IllegalStateException("no " + entry + " in the runtime interface client");
            }
            try (InputStream in = jar.getInputStream(library)) {
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return target;
    }

    @Override
    public LaunchResult runToCompletion(String[] args) {
        throw new UnsupportedOperationException("a Lambda function does not run to completion");
    }

    @Override
    public void close() {
        stopProcess();
        if (runtimeApiProxy != null) {
            runtimeApiProxy.close();
        }
    }

    private void stopProcess() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
