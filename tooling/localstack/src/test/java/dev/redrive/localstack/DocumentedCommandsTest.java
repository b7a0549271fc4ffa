package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Node;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs check: every shell command in the repository's Markdown (the README, CONTRIBUTING, SECURITY, {@code docs/}
 * and every module's README; fenced blocks without a language or in {@code sh}, {@code bash}, {@code shell}) that this
 * machine can check without an AWS account is checked against what the repository holds:
 *
 * <ul>
 *   <li>{@code ./mvnw}: every module of {@code -pl} is a module of the build; a command that compiles a module whose
 *       Redrive dependencies are not all in {@code -pl} has {@code -am} (on a fresh clone nothing is installed, and
 *       without it Maven answers "Could not find artifact dev.redrive:..."); every class {@code -Dtest} names is a test
 *       class of those modules;
 *   <li>{@code bin/...} and {@code .ci/run}: the script exists and is executable;
 *   <li>{@code aws}: the service, the operation and every {@code --parameter} exist in the AWS CLI's own models
 *       (botocore's, read by the python the build uses), so a runbook command a person types at 3 a.m. parses.
 * </ul>
 *
 * The commands {@code .ci/run} runs as they are written ({@code ./mvnw verify}, {@code bin/build-quickstart}) are run
 * there; {@code redrive ...} lines are parsed by the CLI's own parser in the CLI module's
 * {@code DocumentedCliCommandsTest}; the deploy block is run by {@code ReadmeDeployTest}.
 * {@code docs/internals/measurement-log.md} is left out: it records runs on earlier commits, with their commands as
 * they were then.
 */
class DocumentedCommandsTest {

    static final Path ROOT = BomTest.ROOT;

    private static final Set<String> SKIPPED =
            Set.of("target", "node_modules", ".git", ".venv", ".mvn", "cdk.out", ".idea", ".vscode");
    private static final Set<String> SHELL = Set.of("", "sh", "bash", "shell", "console");
    private static final Set<String> COMPILING_GOALS =
            Set.of("compile", "test-compile", "test", "package", "verify", "install", "deploy", "process-classes");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>(redrive-[a-z-]+)</artifactId>");
    private static final Parser PARSER =
            Parser.builder().includeSourceSpans(IncludeSourceSpans.BLOCKS).build();

    /** A command as the reader sees it: its file, the line its block starts on, continuation lines joined. */
    record Command(Path file, int line, String text) {
        List<String> words() {
            return List.of(text.trim().split("\\s+"));
        }

        String where() {
            return ROOT.relativize(file) + ":" + line + " `" + text + "`";
        }
    }

    @Test
    void everyMavenCommandNamesModulesThatExistAndBuildsWhatTheyNeed() {
        List<Command> maven = commands(ROOT, "./mvnw");
        assertThat(maven).as("./mvnw commands in the docs").hasSizeGreaterThan(5);

        assertThat(new MavenChecker(ROOT).check(maven))
                .as("documented ./mvnw commands that would fail on a fresh clone")
                .isEmpty();
    }

    @Test
    void everyScriptCommandNamesAnExecutableScriptOfTheRepository() {
        List<Command> scripts = new ArrayList<>(commands(ROOT, "bin/"));
        scripts.addAll(commands(ROOT, ".ci/"));
        assertThat(scripts).as("bin/ commands in the docs").hasSizeGreaterThan(3);

        List<String> broken = new ArrayList<>();
        for (Command c : scripts) {
            Path script = ROOT.resolve(c.words().get(0));
            if (!Files.isRegularFile(script) || !Files.isExecutable(script)) {
                broken.add(c.where() + ": no executable " + c.words().get(0));
            }
        }
        assertThat(broken).as("documented scripts that do not exist").isEmpty();
    }

    @Test
    void everyAwsCliCommandNamesAServiceAnOperationAndParametersThatExist() throws Exception {
        List<Command> aws = commands(ROOT, "aws ");
        assertThat(aws).as("aws commands in the docs (the runbook's)").hasSizeGreaterThan(5);

        assertThat(checkAwsCommands(aws))
                .as("documented aws commands that the AWS CLI would refuse")
                .isEmpty();
    }

    @Test
    void theChecksCatchAMissingModuleAMissingAmATestThatIsNotThereAndAnAwsTypo(@TempDir Path dir) throws Exception {
        Path doc = dir.resolve("doc.md");
        Files.writeString(doc, """
                ```sh
                ./mvnw verify -pl platform/redrive-nowhere -am
                ./mvnw verify -pl examples/checkout/infra
                ./mvnw verify -pl platform/redrive-core -Dtest=NoSuchTest
                ./mvnw verify -pl platform/redrive-core -Dtest=HttpStatusesTest
                aws cloudwatch describe-alarmz --alarm-names x
                aws cloudwatch describe-alarms --alarm-namez x
                aws cloudwatch describe-alarms --alarm-names x --output json
                ```
                """);
        List<Command> commands = commandsIn(doc);

        List<String> maven = new MavenChecker(ROOT)
                .check(commands.stream()
                        .filter(c -> c.text().startsWith("./mvnw"))
                        .toList());
        assertThat(maven).hasSize(3);
        assertThat(maven.get(0)).contains("platform/redrive-nowhere is not a module");
        assertThat(maven.get(1)).contains("needs -am").contains("redrive-cdk");
        assertThat(maven.get(2)).contains("NoSuchTest");

        List<String> aws = checkAwsCommands(
                commands.stream().filter(c -> c.text().startsWith("aws ")).toList());
        assertThat(aws).hasSize(2);
        assertThat(aws.get(0)).contains("describe-alarmz");
        assertThat(aws.get(1)).contains("--alarm-namez");
    }

    /** The documented commands that start with {@code prefix}, in every Markdown file the check reads. */
    static List<Command> commands(Path root, String prefix) {
        return markdownFiles(root).stream()
                .flatMap(f -> commandsIn(f).stream())
                .filter(c -> c.text().startsWith(prefix))
                .toList();
    }

    static List<Path> markdownFiles(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> {
                        for (Path part : root.relativize(p)) {
                            if (SKIPPED.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .filter(p -> !root.relativize(p).toString().equals("docs/internals/measurement-log.md"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The shell lines of a file's fenced blocks: continuation lines joined, comments and prompts dropped. */
    static List<Command> commandsIn(Path file) {
        Node document;
        try {
            document = PARSER.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Command> found = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(FencedCodeBlock block) {
                String info = block.getInfo() == null ? "" : block.getInfo().trim();
                if (!SHELL.contains(info)) {
                    return;
                }
                int line = block.getSourceSpans().isEmpty()
                        ? 0
                        : block.getSourceSpans().get(0).getLineIndex() + 1;
                String joined = block.getLiteral().replaceAll("\\\\\\n\\s*", " ");
                for (String raw : joined.split("\n")) {
                    String text = raw.strip();
                    if (text.startsWith("$ ")) {
                        text = text.substring(2);
                    }
                    text = text.replaceFirst("\\s+#\\s.*$", "").strip();
                    if (!text.isEmpty() && !text.startsWith("#")) {
                        found.add(new Command(file, line, text));
                    }
                }
            }
        });
        return found;
    }

    /** The Maven rules above, over the build's modules and their Redrive dependencies. */
    static final class MavenChecker {
        private final Path root;
        /** Module folder (relative, as -pl names it) to the Redrive artifacts it depends on. */
        private final Map<String, Set<String>> dependencies = new HashMap<>();
        /** Artifact id to the module folder that builds it. */
        private final Map<String, String> modules = new HashMap<>();

        MavenChecker(Path root) {
            this.root = root;
            try (Stream<Path> poms = Files.walk(root)) {
                for (Path pom : poms.filter(p -> p.getFileName().toString().equals("pom.xml"))
                        .filter(p -> !p.toString().contains("/target/")
                                && !p.toString().contains("/node_modules/"))
                        .filter(p -> !p.startsWith(root.resolve("examples/quickstart")))
                        .toList()) {
                    String folder = root.relativize(pom.getParent()).toString();
                    String text = Files.readString(pom, StandardCharsets.UTF_8)
                            .replaceAll("(?s)<parent>.*?</parent>", "")
                            .replaceAll("(?s)<!--.*?-->", "");
                    Matcher own = ARTIFACT.matcher(text);
                    if (!own.find()) {
                        continue;
                    }
                    modules.put(own.group(1), folder);
                    Set<String> deps = new LinkedHashSet<>();
                    while (own.find()) {
                        deps.add(own.group(1));
                    }
                    dependencies.put(folder, deps);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        List<String> check(List<Command> commands) {
            List<String> broken = new ArrayList<>();
            for (Command c : commands) {
                List<String> words = c.words();
                List<String> projects = new ArrayList<>();
                boolean alsoMake = false;
                boolean compiles = false;
                List<String> tests = new ArrayList<>();
                for (int i = 1; i < words.size(); i++) {
                    String w = words.get(i);
                    if ((w.equals("-pl") || w.equals("--projects")) && i + 1 < words.size()) {
                        projects.addAll(List.of(words.get(++i).split(",")));
                    } else if (w.equals("-am") || w.equals("--also-make")) {
                        alsoMake = true;
                    } else if (w.startsWith("-Dtest=")) {
                        tests.addAll(
                                List.of(unquote(w.substring("-Dtest=".length())).split(",")));
                    } else if (COMPILING_GOALS.contains(w)) {
                        compiles = true;
                    }
                }
                boolean allKnown = true;
                for (String project : projects) {
                    if (!dependencies.containsKey(project)) {
                        Set<String> known = new TreeSet<>(dependencies.keySet());
                        known.remove("");
                        broken.add(
                                c.where() + ": " + project + " is not a module of the build (modules: " + known + ")");
                        allKnown = false;
                    }
                }
                if (!allKnown) {
                    continue;
                }
                if (compiles && !alsoMake && !projects.isEmpty()) {
                    Set<String> missing = new TreeSet<>();
                    for (String project : projects) {
                        for (String dep : dependencies.get(project)) {
                            String module = modules.get(dep);
                            if (module != null && !projects.contains(module)) {
                                missing.add(dep);
                            }
                        }
                    }
                    if (!missing.isEmpty()) {
                        broken.add(c.where() + ": needs -am (on a fresh clone " + missing
                                + " are not installed anywhere)");
                    }
                }
                for (String test : tests) {
                    String name = test.replaceFirst("^!", "").replaceFirst("#.*$", "");
                    // NONE: the idiom that runs no unit test (with -Dsurefire.failIfNoSpecifiedTests=false), e.g.
                    // before ITs
                    if (name.isEmpty() || name.equals("NONE") || name.contains("*") || name.contains("/")) {
                        continue;
                    }
                    String simple = name.substring(name.lastIndexOf('.') + 1);
                    if (!testClassExists(projects, simple)) {
                        broken.add(c.where() + ": no test class " + simple + " in " + projects);
                    }
                }
            }
            return broken;
        }

        private boolean testClassExists(List<String> projects, String simpleName) {
            List<Path> folders = projects.isEmpty()
                    ? List.of(root)
                    : projects.stream()
                            .map(p -> root.resolve(p).resolve("src/test"))
                            .toList();
            for (Path folder : folders) {
                if (!Files.isDirectory(folder)) {
                    continue;
                }
                try (Stream<Path> walk = Files.walk(folder)) {
                    if (walk.anyMatch(p -> p.getFileName().toString().equals(simpleName + ".java"))) {
                        return true;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return false;
        }

        private static String unquote(String s) {
            return s.replaceAll("^['\"]|['\"]$", "");
        }
    }

    /**
     * Checks the {@code aws} commands against botocore's service models (the AWS CLI v1 parses with them): one python
     * process for all of them, answering one line per broken command.
     */
    static List<String> checkAwsCommands(List<Command> commands) throws Exception {
        StringBuilder input = new StringBuilder();
        for (Command c : commands) {
            input.append(c.where().replace('\n', ' '))
                    .append('\t')
                    .append(c.text())
                    .append('\n');
        }
        String script = """
                import sys, shlex, botocore, botocore.session
                GLOBAL = {'--output', '--query', '--region', '--profile', '--endpoint-url', '--no-paginate',
                          '--page-size', '--max-items', '--starting-token', '--no-cli-pager', '--debug',
                          '--cli-input-json', '--generate-cli-skeleton', '--no-verify-ssl', '--color'}
                session = botocore.session.get_session()
                services = set(session.get_available_services())
                kebab = lambda name: botocore.xform_name(name, '-')
                # AWS CLI v2's own commands, not in the service models (the runbook uses v2, the CLI AWS installs by
                # default): https://awscli.amazonaws.com/v2/documentation/api/latest/reference/logs/tail.html
                CUSTOM = {('logs', 'tail'): {'--since', '--follow', '--format', '--filter-pattern',
                                             '--log-stream-names', '--log-stream-name-prefix'}}
                for line in sys.stdin:
                    where, text = line.rstrip('\\n').split('\\t', 1)
                    try:
                        words = shlex.split(text)
                    except ValueError as e:
                        print(where + ': does not parse: ' + str(e)); continue
                    if len(words) < 3:
                        print(where + ': no service and operation'); continue
                    service, operation = words[1], words[2]
                    if service == 's3' or service == 'configure':
                        continue
                    if (service, operation) in CUSTOM:
                        for w in words[3:]:
                            flag = w.split('=', 1)[0]
                            if w.startswith('--') and flag not in CUSTOM[(service, operation)] | GLOBAL:
                                print(where + ': ' + service + ' ' + operation + ' has no parameter ' + flag)
                        continue
                    if service not in services:
                        print(where + ': no AWS CLI service ' + service); continue
                    model = session.get_service_model(service)
                    ops = {kebab(o): o for o in model.operation_names}
                    if operation not in ops:
                        print(where + ': ' + service + ' has no operation ' + operation); continue
                    shape = model.operation_model(ops[operation]).input_shape
                    members = set(kebab(m) for m in (shape.members if shape else {}))
                    for w in words[3:]:
                        if w.startswith('--'):
                            name = w[2:].split('=', 1)[0]
                            flag = '--' + name
                            if flag in GLOBAL or name in members or (name.startswith('no-') and name[3:] in members):
                                continue
                            print(where + ': ' + service + ' ' + operation + ' has no parameter ' + flag)
                """;
        Path file = Files.createTempFile("redrive-aws-commands-", ".py");
        try {
            Files.writeString(file, script);
            Process p = new ProcessBuilder(python(), file.toString())
                    .redirectErrorStream(true)
                    .start();
            p.getOutputStream().write(input.toString().getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS))
                    .as("the botocore check finished")
                    .isTrue();
            assertThat(p.exitValue())
                    .as("the botocore check's exit; its output:%n%s", out)
                    .isZero();
            return out.lines().filter(l -> !l.isBlank()).toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String python() {
        String configured = System.getenv("REDRIVE_PYTHON");
        return configured == null || configured.isBlank() ? "python3" : configured;
    }
}
