package dev.redrive.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.assertions.Template;

/**
 * Runs the documented deploy commands ({@code docs/deploy.md}, which the root README links) up to the synthesized
 * template, as the CDK CLI runs them: the fenced block of its "Deploy" section is read here (so the doc and this test cannot drift), the {@code cd} is followed, and the first
 * {@code deploy}'s app is {@code cdk.json}'s command, run in a shell from that directory with the CLI's environment
 * ({@code CDK_OUTDIR}, {@code CDK_CONTEXT_JSON}: {@code cdk.json}'s context and the command's {@code -c} flags). That
 * command builds what the app needs in the reactor ({@code -am}) and runs the app once, here on a local repository
 * without this project's installed artifacts (as on a clean clone). The functions artifact is a small zip in its place
 * (the functions' Quarkus build is not run), which passes the synth's artifact checks.
 */
class ReadmeDeployTest {

    private static final Path ROOT = Path.of("..", "..", "..").toAbsolutePath().normalize();
    /** Where the deploy commands are documented (moved out of the root README, which links it). */
    static final String DEPLOY_DOC = "docs/deploy.md";

    private static final String DEPLOY = "npx aws-cdk@2 deploy";
    /** JVM options of the nested Maven, after any MAVEN_OPTS of this build's environment. */
    static final String NESTED_MAVEN_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    private static final Pattern CONTEXT_FLAG = Pattern.compile("(?:^|\\s)(?:-c|--context)\\s+([^=\\s]+)=(\\S+)");

    @Test
    void theReadmesDeployCommandsSynthesizeTheStackWithTheGivenArtifact(@TempDir Path dir)
            throws IOException, InterruptedException {
        List<String> commands = deployBlock();
        String cd = commands.stream()
                .filter(c -> c.startsWith("cd "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(DEPLOY_DOC + "'s deploy block has no cd: " + commands));
        Path app = ROOT.resolve(cd.substring(3).trim()).normalize();
        assertThat(app.resolve("cdk.json"))
                .as(DEPLOY_DOC + "'s cd leads to the CDK app")
                .exists();
        assertThat(commands.get(0))
                .as("the block starts by building the functions' artifact")
                .startsWith("./mvnw ")
                .contains("-pl examples/checkout/functions")
                .contains(" package");
        List<Map<String, String>> deploys = commands.stream()
                .filter(c -> c.startsWith(DEPLOY))
                .map(ReadmeDeployTest::contextFlags)
                .toList();
        assertThat(deploys).as("deploy commands in " + DEPLOY_DOC).hasSizeGreaterThanOrEqualTo(2);
        for (Map<String, String> flags : deploys) {
            assertThat(app.resolve(flags.get("functionsAsset")).normalize())
                    .as("each deploy's functionsAsset is what the block's build writes")
                    .isEqualTo(ROOT.resolve("examples/checkout/functions/target/function.zip"));
        }

        Path artifact = jvmArtifact(dir.resolve("function.zip"));
        Path outdir = Files.createDirectories(dir.resolve("cdk.out"));
        Map<String, String> first = new LinkedHashMap<>(deploys.get(0));
        first.put("functionsAsset", artifact.toString());
        Process synth = cdkApp(app, first, outdir, dir.resolve("synth.log"), withoutThisProject(dir.resolve("repo")));
        boolean ended = synth.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            synth.destroyForcibly();
        }
        String log = Files.readString(dir.resolve("synth.log"), StandardCharsets.UTF_8);
        assertThat(ended)
                .as("cdk.json's app ended within 5 minutes; its output:\n" + log)
                .isTrue();
        assertThat(synth.exitValue())
                .as("cdk.json's app's exit status; its output:\n" + log)
                .isZero();

        Path templateFile = outdir.resolve(RedriveStack.NAME + ".template.json");
        assertThat(templateFile).exists();
        TemplateView t = new TemplateView(Template.fromString(Files.readString(templateFile)));
        assertThat(t.functionIds()).hasSize(7);
        String key = assetKey(outdir, artifact);
        for (String fn : t.functionIds()) {
            assertThat(TemplateView.map(t.properties(fn), "Code"))
                    .as("function " + fn + " runs the given artifact")
                    .containsEntry("S3Key", key);
        }
        assertThat(t.environment(t.function("checkout")))
                .containsEntry("REDRIVE_CHECKOUT_PAYMENTS_URL", deploys.get(0).get("paymentProviderUrl"));

        // The block's other deploys synthesize too (in this JVM: the app command's run is the one above).
        for (Map<String, String> other : new java.util.LinkedHashSet<>(deploys.subList(1, deploys.size()))) {
            if (other.equals(deploys.get(0))) {
                continue;
            }
            Map<String, Object> context = new LinkedHashMap<>(cdkJsonContext(app));
            context.putAll(other);
            context.put("functionsAsset", artifact.toString());
            assertThat(Synth.asGiven(context).artifact().isPlaceholder()).isFalse();
        }
    }

    /** The commands of the first fenced block under the deploy doc's "## Deploy", comments and comment lines left out. */
    private static List<String> deployBlock() throws IOException {
        String readme = Files.readString(ROOT.resolve(DEPLOY_DOC), StandardCharsets.UTF_8);
        int section = readme.indexOf("\n## Deploy\n");
        assertThat(section).as(DEPLOY_DOC + " has a Deploy section").isNotNegative();
        int open = readme.indexOf("\n```\n", section);
        int close = readme.indexOf("\n```\n", open + 5);
        List<String> commands = new ArrayList<>();
        for (String line : readme.substring(open + 5, close).split("\n")) {
            String command = line.replaceFirst("\\s+#.*$", "").trim();
            if (!command.isEmpty() && !command.startsWith("#")) {
                commands.add(command);
            }
        }
        return commands;
    }

    private static Map<String, String> contextFlags(String command) {
        Map<String, String> flags = new LinkedHashMap<>();
        Matcher m = CONTEXT_FLAG.matcher(command);
        while (m.find()) {
            flags.put(m.group(1), m.group(2));
        }
        return flags;
    }

    /**
     * A local repository as a clean clone meets it: this build's repository (its third-party artifacts, symbolic links to
     * them) without {@code dev/redrive}, which {@code mvnw install} may have filled. So the app must build the
     * project's modules it needs in the reactor, as on a machine that never installed them.
     */
    private static Path withoutThisProject(Path repo) throws IOException {
        Path outer = Path.of(System.getProperty("redrive.maven.repo.local", ""));
        assertThat(outer)
                .as("this build's local repository (the surefire argLine)")
                .isDirectory();
        Files.createDirectories(repo.resolve("dev"));
        try (Stream<Path> groups = Files.list(outer)) {
            for (Path group : groups.toList()) {
                if (!group.getFileName().toString().equals("dev")) {
                    Files.createSymbolicLink(repo.resolve(group.getFileName().toString()), group);
                }
            }
        }
        if (Files.isDirectory(outer.resolve("dev"))) {
            try (Stream<Path> groups = Files.list(outer.resolve("dev"))) {
                for (Path group : groups.toList()) {
                    if (!group.getFileName().toString().equals("redrive")) {
                        Files.createSymbolicLink(
                                repo.resolve("dev").resolve(group.getFileName().toString()), group);
                    }
                }
            }
        }
        return repo;
    }

    /**
     * Starts {@code cdk.json}'s app the way the CDK CLI does: through a shell, in the app's directory, with the output
     * directory and the context in the environment. The outer build's offline mode and the local repository reach the
     * nested Maven through {@code MAVEN_ARGS}.
     */
    private static Process cdkApp(Path app, Map<String, String> flags, Path outdir, Path log, Path repo)
            throws IOException {
        Map<String, Object> context = new LinkedHashMap<>(cdkJsonContext(app));
        context.putAll(flags);
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", cdkJsonApp(app))
                .directory(app.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("CDK_OUTDIR", outdir.toString());
        pb.environment().put("CDK_CONTEXT_JSON", json(context));
        List<String> mavenArgs = new ArrayList<>();
        if (Boolean.getBoolean("redrive.maven.offline")) {
            mavenArgs.add("-o");
        }
        mavenArgs.add("-Dmaven.repo.local=" + repo);
        pb.environment().put("MAVEN_ARGS", String.join(" ", mavenArgs));
        // The nested Maven is a short-lived JVM (a reactor with nothing to compile, then one synth): C1 alone and the
        // serial collector cost it less than half the CPU (user 8.6 s against 20.8 s, measured with /usr/bin/time on
        // the command above). What the run proves (cdk.json's command, this local repository) is unchanged.
        String opts = System.getenv().getOrDefault("MAVEN_OPTS", "");
        pb.environment().put("MAVEN_OPTS", (opts + " " + NESTED_MAVEN_OPTS).trim());
        return pb.start();
    }

    private static String cdkJsonApp(Path app) throws IOException {
        Matcher m = Pattern.compile("\"app\"\\s*:\\s*\"([^\"]+)\"").matcher(Files.readString(app.resolve("cdk.json")));
        assertThat(m.find()).as("cdk.json has an app").isTrue();
        return m.group(1);
    }

    /** {@code cdk.json}'s context: string values only (it holds no other). */
    private static Map<String, String> cdkJsonContext(Path app) throws IOException {
        String json = Files.readString(app.resolve("cdk.json"));
        Matcher block = Pattern.compile("\"context\"\\s*:\\s*\\{([^}]*)}").matcher(json);
        Map<String, String> context = new LinkedHashMap<>();
        if (block.find()) {
            Matcher entry = Pattern.compile("\"([^\"]+)\"\\s*:\\s*\"([^\"]*)\"").matcher(block.group(1));
            while (entry.find()) {
                context.put(entry.group(1), entry.group(2));
            }
        }
        return context;
    }

    private static String json(Map<String, Object> context) {
        StringBuilder json = new StringBuilder("{");
        context.forEach((k, v) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append(quoted(k)).append(':').append(quoted(v.toString()));
        });
        return json.append('}').toString();
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A zip the synth takes for the JVM runtime (it holds a {@code lib/*.jar}); no function could run it. */
    private static Path jvmArtifact(Path zip) throws IOException {
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new ZipEntry("lib/dev.redrive.readme-deploy-test.jar"));
            out.write(new byte[] {'P', 'K', 5, 6});
            out.closeEntry();
        }
        return zip;
    }

    /** The S3 key of the staged copy of {@code artifact} in the cloud assembly ({@code asset.<hash>.zip}). */
    private static String assetKey(Path outdir, Path artifact) throws IOException {
        byte[] bytes = Files.readAllBytes(artifact);
        List<Path> copies;
        try (Stream<Path> files = Files.list(outdir)) {
            copies = files.filter(f -> f.getFileName().toString().matches("asset\\.[0-9a-f]{64}\\.zip"))
                    .filter(f -> {
                        try {
                            return java.util.Arrays.equals(Files.readAllBytes(f), bytes);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .toList();
        }
        assertThat(copies).as("the artifact staged in " + outdir).singleElement();
        return copies.get(0).getFileName().toString().substring("asset.".length());
    }
}
