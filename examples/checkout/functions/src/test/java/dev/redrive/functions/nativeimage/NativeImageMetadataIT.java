package dev.redrive.functions.nativeimage;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.checkout.OrderPlaced;
import dev.redrive.functions.nativeimage.JacksonReflection.Needed;
import dev.redrive.functions.nativeimage.JacksonReflection.Use;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a native image of the functions needs, checked on the input Quarkus prepares for native-image (the
 * native-metadata execution of examples/checkout/functions/pom.xml, or with -Pnative the real build's), without GraalVM. A failure here
 * is a native image that would fail at build time or on its first invocation while the JVM build works.
 */
class NativeImageMetadataIT {

    /**
     * Static generator fields of classes initialized at build time that are known not to end up in the image heap,
     * each with the reason. Anything else found fails the test.
     */
    private static final Map<String, String> ACCEPTED = Map.of();

    static NativeImageInput input;

    @BeforeAll
    static void read() {
        String dir = System.getProperty("native-metadata.sources");
        assertThat(dir)
                .as(
                        "system property native-metadata.sources (failsafe sets it; run ./mvnw verify -pl examples/checkout/functions -am)")
                .isNotBlank();
        input = new NativeImageInput(Path.of(dir));
    }

    @Test
    void everyEventSchemaIsANativeResource() throws IOException {
        List<Path> checkout = input.classpath().stream()
                .filter(p -> p.getFileName().toString().startsWith("dev.redrive.redrive-checkout-"))
                .toList();
        assertThat(checkout).as("the checkout's jars on the native classpath").isNotEmpty();
        List<String> schemas = new ArrayList<>();
        for (Path jarFile : checkout) {
            try (ZipFile jar = new ZipFile(jarFile.toFile())) {
                jar.stream()
                        .filter(e -> e.getName().startsWith("schemas/") && !e.isDirectory())
                        .forEach(e -> schemas.add(e.getName()));
            }
        }

        assertThat(schemas).as("schema files in " + checkout).isNotEmpty();
        assertThat(schemas)
                .as("EventSchemas reads these at start; a native image holds only the resources it is told to")
                .allSatisfy(schema -> assertThat(input.includesResource(schema))
                        .as(schema + " in the resource configuration")
                        .isTrue());
    }

    @Test
    void everyClassJacksonBindsOrInstantiatesIsRegisteredForReflection() throws ClassNotFoundException {
        // EMF's document root is package-private: MetricsContext.serialize hands it to Jackson.
        Class<?> emfRoot = Class.forName("software.amazon.cloudwatchlogs.emf.model.RootNode");
        List<Class<?>> roots = List.of(
                SQSEvent.class,
                SQSBatchResponse.class,
                APIGatewayV2HTTPEvent.class,
                APIGatewayV2HTTPResponse.class,
                DeadLetterMetadata.class,
                OrderPlaced.class,
                emfRoot);
        var needed = JacksonReflection.of(
                roots,
                List.of(
                        "com.amazonaws.services.lambda.runtime.events",
                        "dev.redrive",
                        "software.amazon.cloudwatchlogs.emf.model"));

        List<String> missing = new ArrayList<>();
        for (Needed n : needed) {
            JsonNode entry = input.reflection(n.type().getName());
            if (entry == null) {
                missing.add(n.type().getName() + " is not registered (" + n.reason() + ")");
            } else if (!constructors(entry)) {
                missing.add(n.type().getName() + " is registered without its constructors (" + n.reason() + ")");
            } else if (n.use() == Use.BOUND && !members(entry)) {
                missing.add(n.type().getName() + " is registered without methods or fields (" + n.reason() + ")");
            }
        }
        assertThat(needed)
                .extracting(n -> n.type().getSimpleName())
                .contains("SQSMessage", "InstantSerializer", "UnitDeserializer", "StorageResolutionFilter");
        assertThat(missing).as("Jackson would fail on these in a native image").isEmpty();
    }

    @Test
    void noClassInitializedAtBuildTimeHoldsAStaticRandom() {
        List<String> problems = new ArrayList<>();
        for (StaticRandomFields.Field f : StaticRandomFields.in(input.classpath())) {
            if (!input.initializedAtRunTime(f.owner()) && !ACCEPTED.containsKey(f.owner())) {
                problems.add(f + " is initialized at build time");
            }
        }
        Collections.sort(problems);

        assertThat(problems)
                .as("native-image refuses a Random in the image heap; initialize these at run time or drop their jar")
                .isEmpty();
        assertThat(input.classpath())
                .extracting(p -> p.getFileName().toString())
                .as("the functions use the URL-connection client only")
                .noneMatch(name -> name.contains("httpclient5") || name.contains("apache5-client"));
    }

    private static boolean constructors(JsonNode entry) {
        return entry.path("allDeclaredConstructors").asBoolean()
                || entry.path("allPublicConstructors").asBoolean()
                || entry.path("methods").findValuesAsText("name").contains("<init>");
    }

    private static boolean members(JsonNode entry) {
        return entry.path("allDeclaredMethods").asBoolean()
                || entry.path("allPublicMethods").asBoolean()
                || entry.path("allDeclaredFields").asBoolean()
                || entry.path("allPublicFields").asBoolean();
    }
}
