package dev.redrive.functions.nativeimage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.functions.lambda.NativeReflection;
import dev.redrive.functions.nativeimage.NativeConfigurationNames.Named;
import dev.redrive.functions.nativeimage.SubstitutionTargets.Outcome;
import dev.redrive.functions.nativeimage.SubstitutionTargets.Substitution;
import dev.redrive.lambda.EmfOutput;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The native build's class path holds together, checked without GraalVM on the input Quarkus prepares for
 * native-image (as {@link NativeImageMetadataIT}): every GraalVM substitution on it (the extensions', Quarkus'
 * generated ones, ours) resolves its target as native-image would, and every class the native configuration names
 * exists. A library upgrade that renames a class a substitution targets (the AWS SDK's
 * {@code CrcChecksumProvider}, renamed {@code ChecksumProvider}, under quarkus-amazon-services' {@code CrtSubstitutions})
 * fails here instead of in a native build nobody runs.
 */
class NativeClassPathIT {

    /** The SDK checksum provider's substitution, in the Redrive extension's runtime (package-private there). */
    static final String CHECKSUM_PROVIDER_SUBSTITUTION = "dev.redrive.quarkus.internal.ChecksumProviderSubstitution";

    /** What the Redrive extension's build step registers for reflection ({@code RedriveProcessor.reflection}). */
    static final List<String> REDRIVE_EXTENSION_REFLECTION = Stream.concat(
                    EmfOutput.REFLECTED_CLASSES.stream(), Stream.of("dev.redrive.aws.queues.DeadLetterMetadata"))
            .toList();

    /**
     * Classes the native configuration names that are absent by design, by name or package prefix, each with the
     * reason. Anything else named and absent fails the test.
     */
    private static final Map<String, String> ABSENT_BY_DESIGN = Map.of(
            "com.hazelcast.",
            "micrometer-core registers its Hazelcast binder's types; Hazelcast is not a dependency",
            "software.amazon.awssdk.crt.",
            "the SDK registers its CRT-based clients' types; aws-crt is left out (the URL-connection client only)",
            "io.quarkus.deployment.pkg.jar.JarTypeDefaultValueConfigInterceptor",
            "Quarkus registers a class of its build (deployment) side, which is never on a runtime class path");

    static NativeImageInput input;
    static URLClassLoader nativeClassPath;

    @BeforeAll
    static void read() {
        String dir = System.getProperty("native-metadata.sources");
        assertThat(dir)
                .as(
                        "system property native-metadata.sources (failsafe sets it; run ./mvnw verify -pl examples/checkout/functions -am)")
                .isNotBlank();
        input = new NativeImageInput(Path.of(dir));
        URL[] urls = input.classpath().stream().map(NativeClassPathIT::url).toArray(URL[]::new);
        // The JDK's classes and the native class path, nothing of this test's own class path.
        nativeClassPath = new URLClassLoader("native-class-path", urls, ClassLoader.getPlatformClassLoader());
    }

    @AfterAll
    static void close() throws IOException {
        nativeClassPath.close();
    }

    @Test
    void everySubstitutionResolvesItsTargetAsNativeImageWould() {
        List<Substitution> substitutions = SubstitutionTargets.in(input.classpath());
        Map<String, List<String>> byOutcome = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (Substitution s : substitutions) {
            Outcome outcome = SubstitutionTargets.resolve(s, nativeClassPath);
            byOutcome
                    .computeIfAbsent(outcome.getClass().getSimpleName(), k -> new ArrayList<>())
                    .add(s.substitution());
            if (outcome instanceof Outcome.Fails f) {
                failures.add(s + ": " + f.why());
            } else if (outcome instanceof Outcome.Applied a && a.target().getClassLoader() == nativeClassPath) {
                // members of the JDK's classes are left out: this JVM's JDK is not the one native-image runs on
                failures.addAll(SubstitutionTargets.missingMembers(s, a.target(), nativeClassPath));
            }
        }
        byOutcome.forEach((k, v) -> System.out.println("substitutions " + k + ": " + v.size()));

        assertThat(substitutions)
                .as("the scan finds the substitutions of Quarkus and of the AWS extensions")
                .extracting(Substitution::substitution)
                .contains(
                        "io.quarkus.runtime.graal.Target_javax_net_ssl_SSLContext",
                        "io.quarkiverse.amazon.common.runtime.CrtSubstitutions$Target_AwsV4aHttpSigner");
        assertThat(substitutions)
                .as("ours, for the SDK's checksum provider without aws-crt, applies")
                .filteredOn(s -> s.substitution().equals(CHECKSUM_PROVIDER_SUBSTITUTION))
                .singleElement()
                .extracting(s -> SubstitutionTargets.resolve(s, nativeClassPath))
                .isInstanceOf(Outcome.Applied.class);
        assertThat(failures)
                .as("native-image stops at the first of these (AnnotationSubstitutionProcessor.findTargetClass); "
                        + "choose library versions that fit together, or see docs/internals/native.md")
                .isEmpty();
    }

    @Test
    void everyClassTheNativeConfigurationNamesExists() {
        List<String> missing = new ArrayList<>();
        for (Named n : NativeConfigurationNames.in(input.classpath())) {
            if (n.condition().isPresent() && !loads(n.condition().get())) {
                continue; // registered only if a class is reachable that is not here: never applies
            }
            if (!loads(n.className()) && ABSENT_BY_DESIGN.keySet().stream().noneMatch(n.className()::startsWith)) {
                missing.add(n.toString());
            }
        }
        assertThat(missing)
                .as("native-image skips these registrations with at most a warning: renamed or removed classes")
                .isEmpty();
    }

    @Test
    void everyClassOurRegistrationsNameIsOnTheNativeClassPathAndRegistered() {
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> registered = new java.util.LinkedHashMap<>();
        RegisterForReflection r = NativeReflection.class.getAnnotation(RegisterForReflection.class);
        registered.put(
                NativeReflection.class.getSimpleName(),
                Stream.concat(Arrays.stream(r.targets()).map(Class::getName), Arrays.stream(r.classNames()))
                        .toList());
        registered.put("the Redrive extension's build step", REDRIVE_EXTENSION_REFLECTION);
        registered.forEach((registering, names) -> names.forEach(name -> {
            if (!loads(name)) {
                problems.add(name + " (" + registering + ") is not on the class path");
            } else if (input.reflection(name) == null) {
                problems.add(name + " (" + registering + ") is not in reflect-config");
            }
        }));
        assertThat(problems).isEmpty();
    }

    private static boolean loads(String className) {
        String name = className.endsWith("[]") ? className.substring(0, className.indexOf('[')) : className;
        if (Optional.of(name).filter(n -> n.length() < 8 && !n.contains(".")).isPresent()) {
            return true; // a primitive
        }
        try {
            Class.forName(name, false, nativeClassPath);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static URL url(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }
}
