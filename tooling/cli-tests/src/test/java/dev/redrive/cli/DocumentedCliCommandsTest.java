package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code redrive ...} command in the repository's Markdown (the runbook, the operating guide, the module
 * READMEs...) parses with the CLI's own command line: its subcommand exists and so does every option it gives, with a
 * value of the option's type. Placeholders ({@code <queue>}, {@code <id>}) are given a sample value. Nothing runs: this
 * is the docs check of issue 42 for the CLI's commands (the other commands are {@code tooling/localstack}'s
 * {@code DocumentedCommandsTest}).
 */
class DocumentedCliCommandsTest {

    static final Path ROOT = Path.of("..", "..").toAbsolutePath().normalize();
    private static final Set<String> SKIPPED =
            Set.of("target", "node_modules", ".git", ".venv", ".mvn", "cdk.out", ".idea", ".vscode");
    private static final Pattern FENCE = Pattern.compile("(?ms)^ {0,3}```(\\w*)[^\\n]*\\n(.*?)^ {0,3}```");
    private static final Pattern PLACEHOLDER = Pattern.compile("<[^>]+>");

    @Test
    void everyDocumentedRedriveCommandParses() {
        List<String> commands = documentedCommands();
        assertThat(commands).as("redrive commands in the docs").hasSizeGreaterThan(10);

        List<String> refused = new ArrayList<>();
        for (String documented : commands) {
            String problem = parse(documented.substring(documented.indexOf(": redrive ") + 2));
            if (problem != null) {
                refused.add(documented + " -> " + problem);
            }
        }
        assertThat(refused).as("documented redrive commands the CLI refuses").isEmpty();
    }

    @Test
    void aCommandWithATypoIsRefused() {
        assertThat(parse("redrive list --state QUARANTINED --group")).isNull();
        assertThat(parse("redrive lsit --state QUARANTINED")).isNotNull();
        assertThat(parse("redrive list --stat QUARANTINED")).contains("--stat");
        assertThat(parse("redrive stats --since soon")).isNotNull();
    }

    /** Null when {@code command} parses, else why it does not. */
    static String parse(String command) {
        String line = PLACEHOLDER.matcher(command).replaceAll("x");
        List<String> args = new ArrayList<>(List.of(line.trim().split("\\s+")));
        args.remove(0);
        args.replaceAll(a -> a.replaceAll("^['\"]|['\"]$", ""));
        try (RedriveCli root = new RedriveCli(CliContext.of(Map.of(), Clock.systemUTC(), "os-user"))) {
            CommandLine cl = RedriveCli.commandLine(root);
            cl.parseArgs(args.toArray(String[]::new));
            return null;
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        }
    }

    /** Each documented {@code redrive} command as {@code <file>: <command>}. */
    static List<String> documentedCommands() {
        List<String> commands = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(ROOT)) {
            for (Path file : walk.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> {
                        for (Path part : ROOT.relativize(p)) {
                            if (SKIPPED.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .filter(p -> !ROOT.relativize(p).toString().equals("docs/internals/measurement-log.md"))
                    .sorted()
                    .toList()) {
                Matcher block = FENCE.matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (block.find()) {
                    if (!Set.of("", "sh", "bash", "shell", "console").contains(block.group(1))) {
                        continue;
                    }
                    for (String raw :
                            block.group(2).replaceAll("\\\\\\n\\s*", " ").split("\n")) {
                        String text = raw.strip().replaceFirst("^\\$ ", "").replaceFirst("\\s+#\\s.*$", "");
                        // "redrive list: unknown queue ..." is the CLI's output shown beside a command, not a command
                        if (text.startsWith("redrive ") && !text.split("\\s+")[1].endsWith(":")) {
                            commands.add(ROOT.relativize(file) + ": " + text);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return commands.stream()
                .map(c -> c.substring(c.indexOf(": ") + 2))
                .distinct()
                .toList();
    }
}
