package dev.redrive.functions.it;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Runs the packaged JVM jar as Lambda's managed {@code java21} runtime does: AWS's runtime interface client (the one
 * that runtime uses) loads {@code QuarkusStreamHandler}, which boots the application, and polls the Runtime API (see
 * {@link LambdaProcessLauncher}).
 */
final class RuntimeInterfaceClientLauncher extends LambdaProcessLauncher {

    private static final String RIC_MAIN = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";

    private final Path jar;

    RuntimeInterfaceClientLauncher(Path jar, Path buildOutput, Map<String, String> devServices) {
        super(buildOutput, devServices);
        this.jar = jar;
    }

    @Override
    List<String> command(Map<String, String> systemProperties, Path work) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:+TieredCompilation"); // the stack's JAVA_TOOL_OPTIONS for the java21 runtime
        command.add("-XX:TieredStopAtLevel=1");
        // the client's JNI library, unpacked under target/ (the java21 runtime has it installed; unpacked by the
        // client itself it would go to /tmp/.libaws-lambda-jni.so, shared by every build on the machine)
        command.add("-Dcom.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI="
                + unpackJniLibrary(work));
        systemProperties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-cp");
        command.add(jar + File.pathSeparator + runtimeInterfaceClientClasspath());
        command.add(RIC_MAIN);
        command.add(HANDLER);
        return command;
    }

    @Override
    String description() {
        return "the packaged function under the runtime interface client";
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
    private static Path unpackJniLibrary(Path work) throws IOException {
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
}
