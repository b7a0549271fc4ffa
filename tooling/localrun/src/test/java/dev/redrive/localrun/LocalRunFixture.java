package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.infra.RedriveApp;
import dev.redrive.testing.SuitePhases;
import dev.redrive.testing.localaws.LocalAws;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * What every test that starts the whole local system shares: where the built modules are, and the start itself, on
 * this test JVM's one local AWS with its state reset.
 */
public final class LocalRunFixture {

    /** The repository's root (the tests run in {@code localrun/}). */
    public static final Path ROOT = Path.of("..", "..").toAbsolutePath().normalize();

    /** The local run's stack context, {@code bin/redrive-local}'s ({@link LocalStackContext}). */
    static final Path LOCAL_STACK = ROOT.resolve("tooling/localrun/local-stack.properties");

    private LocalRunFixture() {}

    /** The demo stack's template, as the infra module synthesizes it. */
    static Path demoTemplate() {
        Path template = ROOT.resolve("examples/checkout/infra/target/cdk.out/Redrive.template.json");
        assertThat(template)
                .as("the template: build infra first (./mvnw -pl examples/checkout/infra package)")
                .exists();
        return template;
    }

    /** The functions module's target folder, holding the packaged artifact. */
    public static Path packagedFunctions() throws IOException {
        Path functions = ROOT.resolve("examples/checkout/functions/target");
        try (Stream<Path> files = Files.list(functions)) {
            assertThat(files.anyMatch(p -> p.getFileName().toString().endsWith("-runner.jar")))
                    .as("the packaged functions: build them first (./mvnw -pl examples/checkout/functions package)")
                    .isTrue();
        }
        return functions;
    }

    /**
     * The local run's stack, synthesized as bin/redrive-local synthesizes it: the context of {@code
     * tooling/localrun/local-stack.properties} ({@link LocalStackContext}; the chaos stack's when {@code chaos}) and the
     * packaged functions, in {@code outdir}.
     *
     * <p>A synth costs seconds (the CDK app runs in jsii's node process): this JVM synthesizes each stack once, keyed by
     * its inputs (the whole context, the functions archive's size and time), into a folder of its own under {@code
     * target/synthesized}, and copies that cloud assembly into {@code outdir} for every test that asks for the same
     * stack.
     */
    static Path synthesizeLocalStack(Path outdir, boolean chaos) throws IOException {
        return synthesizeLocalStack(outdir, chaos, Map.of());
    }

    /** The context keys the build's incident run replaces ({@link LocalStackContext#forTheBuildsIncidentRun}). */
    public static Map<String, String> incidentOverrides() {
        return LocalStackContext.forTheBuildsIncidentRun();
    }

    /**
     * {@link #synthesizeLocalStack(Path, boolean)} with the context keys of {@code overrides} replacing the file's: a
     * test that compresses a real-time period of the demo stack (the breaker's open period, say) for its run, without
     * changing the stack bin/redrive-local deploys.
     */
    public static synchronized Path synthesizeLocalStack(Path outdir, boolean chaos, Map<String, String> overrides)
            throws IOException {
        Map<String, Object> context = new LinkedHashMap<>(LocalStackContext.of(LOCAL_STACK, chaos, System.getenv()));
        context.putAll(overrides);
        Path functions = ROOT.resolve("examples/checkout/functions/target/function.zip");
        assertThat(functions)
                .as("the packaged functions: build them first (./mvnw -pl examples/checkout/functions package)")
                .exists();
        context.put("functionsAsset", functions.toString());
        String key = new TreeMap<>(context) + " functions " + Files.size(functions) + " bytes, modified "
                + Files.getLastModifiedTime(functions);
        Path assembly = SYNTHESIZED.get(key);
        if (assembly == null || !Files.isRegularFile(assembly.resolve(TEMPLATE))) {
            assembly = Files.createTempDirectory(
                    Files.createDirectories(ROOT.resolve("tooling/localrun/target/synthesized")),
                    chaos ? "chaos-stack-" : "local-stack-");
            App app = new App(AppProps.builder()
                    .outdir(assembly.toString())
                    .context(context)
                    .build());
            SuitePhases.timed("cdk-synth", () -> {
                RedriveApp.create(app);
                return app.synth();
            });
            SYNTHESIZED.put(key, assembly);
        }
        copyTree(assembly, outdir);
        return outdir.resolve(TEMPLATE);
    }

    private static final String TEMPLATE = "Redrive.template.json";

    /** Cloud assemblies this JVM synthesized, by their inputs. */
    private static final Map<String, Path> SYNTHESIZED = new HashMap<>();

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** Starts the system on the shared local AWS, reset first, its progress lines going nowhere. */
    static LocalSystem start(RunOptions options) throws Exception {
        return start(options, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    /** Starts the system on the shared local AWS, reset first, its progress lines going to {@code progress}. */
    static LocalSystem start(RunOptions options, PrintStream progress) throws Exception {
        LocalAws aws = LocalAws.shared();
        aws.reset();
        return LocalSystem.start(options, new Progress(progress), aws, false);
    }

    /**
     * The consumers' source queues' visibility timeout set to {@code seconds} for a compressed run (the stack's is six
     * times the consumer's timeout): a batch whose invocation timed out comes back sooner. The caller keeps it above
     * the consumer's timeout and its claim's lease.
     */
    static void sourceQueueVisibility(LocalSystem system, int seconds) {
        for (String consumer : List.of(LocalSystem.EMAIL, LocalSystem.REVENUE)) {
            system.aws()
                    .sqs()
                    .setQueueAttributes(b -> b.queueUrl(system.sourceQueueUrl(consumer))
                            .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(seconds))));
        }
    }
}
