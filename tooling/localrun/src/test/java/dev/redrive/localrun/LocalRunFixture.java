package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.infra.RedriveApp;
import dev.redrive.testing.SuitePhases;
import dev.redrive.testing.localaws.LocalAws;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
     * packaged functions, in {@code outdir} (see {@link #synthesized(Map)}).
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
    public static Path synthesizeLocalStack(Path outdir, boolean chaos, Map<String, String> overrides)
            throws IOException {
        copyTree(synthesized(localStackContext(chaos, overrides)), outdir);
        return outdir.resolve(TEMPLATE);
    }

    /** The CDK context of {@link #synthesizeLocalStack(Path, boolean, Map)}'s stack. */
    static Map<String, Object> localStackContext(boolean chaos, Map<String, String> overrides) {
        Map<String, Object> context = new LinkedHashMap<>(LocalStackContext.of(LOCAL_STACK, chaos, System.getenv()));
        context.putAll(overrides);
        Path functions = ROOT.resolve("examples/checkout/functions/target/function.zip");
        assertThat(functions)
                .as("the packaged functions: build them first (./mvnw -pl examples/checkout/functions package)")
                .exists();
        context.put("functionsAsset", functions.toString());
        return context;
    }

    /**
     * The cloud assembly of the CDK app ({@link RedriveApp}) with {@code context}: read only, to copy or provision.
     *
     * <p>A synth costs seconds of CPU, most of them starting jsii's node process, once per JVM. So the build
     * synthesizes every stack these tests ask for in one JVM before they start ({@link SynthesizedStacks}, the
     * module's {@code synthesize-test-stacks} step), into {@code target/synthesized} ({@link SharedByInputs}); a test
     * finds its stack there, or (run alone, or asking for one the step did not make) synthesizes it there itself. The
     * inputs are the whole context and the size and time of the functions archive it names: a rebuilt archive or a
     * changed setting is another stack.
     */
    static Path synthesized(Map<String, Object> context) throws IOException {
        try {
            return SharedByInputs.get(SYNTHESIZED, inputsOf(context), fresh -> {
                        App app = new App(AppProps.builder()
                                .outdir(fresh.toString())
                                .context(context)
                                .build());
                        SuitePhases.timed("cdk-synth", () -> {
                            RedriveApp.create(app);
                            return app.synth();
                        });
                        return Files.isRegularFile(fresh.resolve(TEMPLATE));
                    })
                    .orElseThrow(() -> new IOException("the synth wrote no " + TEMPLATE + " for " + context))
                    .path();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the synth of " + context);
        }
    }

    /** Where {@link #synthesized(Map)} keeps the stacks of this build. */
    static final Path SYNTHESIZED = ROOT.resolve("tooling/localrun/target/synthesized");

    private static final String TEMPLATE = "Redrive.template.json";

    private static String inputsOf(Map<String, Object> context) throws IOException {
        StringBuilder inputs = new StringBuilder();
        new TreeMap<>(context)
                .forEach((k, v) -> inputs.append(k).append('=').append(v).append('\n'));
        Object asset = context.get("functionsAsset");
        if (asset != null) {
            Path functions = Path.of(asset.toString());
            inputs.append("functionsAsset: ")
                    .append(Files.size(functions))
                    .append(" bytes, modified ")
                    .append(Files.getLastModifiedTime(functions))
                    .append('\n');
        }
        return inputs.toString();
    }

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
