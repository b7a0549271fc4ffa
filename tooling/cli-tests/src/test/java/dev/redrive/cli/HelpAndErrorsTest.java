package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** Every command's help is complete; every bad argument or missing resource is one line and a non-zero exit. */
@LocalAwsTest(resetBeforeEach = true)
class HelpAndErrorsTest {

    CliRig rig;

    @BeforeEach
    void rig(LocalAws aws) {
        rig = new CliRig(aws);
    }

    @Test
    void everyCommandsHelpDescribesItAndMentionsEveryOptionParameterExampleAndExitCode() {
        List<CommandLine> commands = new ArrayList<>();
        collect(RedriveCli.commandLine(new RedriveCli(CliContext.of(Map.of(), rig.clock, "u"))), commands);
        List<String> checked = new ArrayList<>();
        for (CommandLine cl : commands) {
            String name = cl.getCommandSpec().qualifiedName(" ");
            if (name.endsWith(" help")) {
                continue;
            }
            String usage = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
            assertThat(cl.getCommandSpec().usageMessage().description())
                    .as(name)
                    .isNotEmpty();
            for (OptionSpec option : cl.getCommandSpec().options()) {
                assertThat(usage).as(name + " mentions " + option.longestName()).contains(option.longestName());
                assertThat(option.description())
                        .as(name + " describes " + option.longestName())
                        .isNotEmpty();
            }
            for (PositionalParamSpec p : cl.getCommandSpec().positionalParameters()) {
                assertThat(usage).as(name + " mentions " + p.paramLabel()).contains(p.paramLabel());
                assertThat(p.description())
                        .as(name + " describes " + p.paramLabel())
                        .isNotEmpty();
            }
            assertThat(usage)
                    .as(name)
                    .contains("Examples:")
                    .contains("Exit codes:")
                    .contains("130");
            checked.add(name);
        }
        assertThat(checked)
                .contains(
                        "redrive",
                        "redrive list",
                        "redrive show",
                        "redrive replay",
                        "redrive archive",
                        "redrive window",
                        "redrive window add",
                        "redrive window list",
                        "redrive window remove",
                        "redrive stats",
                        "redrive backoff");
        assertThat(rig.run("replay", "--help").out())
                .contains(
                        "--filter=EXPR",
                        "--dry-run",
                        "--actor=NAME",
                        "Filter keys: queue, state, class, error-type, older-than");
    }

    @Test
    void helpAndVersionExitZero() {
        CliRig.Run help = rig.run("--help");
        CliRig.Run subHelp = rig.run("help", "stats");
        CliRig.Run version = rig.run("--version");

        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("Usage: redrive", "Commands:", "list", "backoff", "REDRIVE_ROUTES");
        assertThat(subHelp.out()).contains("Usage: redrive stats", "--since=AGE");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("redrive ");
    }

    @Test
    void badArgumentsAreOneLineOnStderrAndExitTwo() {
        List<CliRig.Run> runs = List.of(
                rig.run("list", "--bogus"),
                rig.run("frobnicate"),
                rig.run(),
                rig.run("list", "--limit", "many"),
                rig.run("show"),
                rig.run("replay", "q-1", "--filter", "class=TRANSIENT"),
                rig.run("replay", "--filter", "class=SOMETIMES"),
                rig.run("replay", "--filter", "older-than=yesterday"),
                rig.run("archive", "--filter", "state=LIMBO", "--note", "x"));

        for (CliRig.Run run : runs) {
            assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
            assertThat(run.err().lines())
                    .as(run.err())
                    .singleElement()
                    .asString()
                    .startsWith("redrive")
                    .doesNotContain("Exception", "\tat ");
            assertThat(run.out()).isEmpty();
        }
        assertThat(runs.get(0).err())
                .isEqualTo("redrive list: Unknown option: '--bogus' (see 'redrive list " + "--help')\n");
        assertThat(runs.get(6).err())
                .contains("unknown class 'SOMETIMES': use one of [TRANSIENT, PERMANENT, " + "SCHEMA, POISON]");
    }

    @Test
    void aMissingTableOrUnreachableEndpointIsOneLineNamingItAndExitThree() {
        rig.deadLetter("q-1", Orders.v2("e-1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        rig.env.put(Settings.QUARANTINE_TABLE, "no-such-table");

        CliRig.Run missing = rig.run("list");

        assertThat(missing.exitCode()).isEqualTo(3);
        assertThat(missing.err().lines())
                .singleElement()
                .asString()
                .startsWith("redrive list: DynamoDB table not found")
                .contains("quarantine table 'no-such-table' (REDRIVE_SWEEPER_QUARANTINE_TABLE or --quarantine-table)");

        rig.env.remove(Settings.QUARANTINE_TABLE);
        rig.env.put("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:9");
        CliRig.Run unreachable = rig.run("show", "q-1");

        assertThat(unreachable.exitCode()).isEqualTo(3);
        assertThat(unreachable.err().lines())
                .singleElement()
                .asString()
                .startsWith("redrive show: could not reach AWS: ")
                .contains("AWS_ENDPOINT_URL");

        rig.env.put("AWS_ENDPOINT_URL_DYNAMODB", "not a url");
        CliRig.Run malformed = rig.run("list");

        assertThat(malformed.exitCode()).isEqualTo(3);
        assertThat(malformed.err()).isEqualTo("redrive list: AWS_ENDPOINT_URL for DYNAMODB is not a URL: not a url\n");
    }

    private static void collect(CommandLine cl, List<CommandLine> into) {
        into.add(cl);
        cl.getSubcommands().values().forEach(sub -> collect(sub, into));
    }
}
