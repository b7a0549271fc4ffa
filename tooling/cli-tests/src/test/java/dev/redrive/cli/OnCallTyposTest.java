package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineState;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 39, item 5, as a new on-call engineer meets the CLI: a name that does not exist (a queue, a dependency, a state,
 * a class, a command) is an error that says "did you mean" and names what exists (exit 2), never "nothing there"; a
 * POISON or PERMANENT dead letter is replayed only with {@code --allow-class} (never just {@code --yes}); an already
 * REPLAYED and an already ARCHIVED dead letter get the same kind of answer and the same exit code; an AWS error is short.
 * On the in-memory fakes (the credentials case needs no AWS either: it fails before any call).
 */
class OnCallTyposTest {

    final InMemoryCli cli = new InMemoryCli();

    private void seed() {
        cli.deadLetter("q-1", Orders.v2("e-1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
    }

    @Test
    void aMistypedQueueInListIsAnErrorThatSuggestsTheKnownQueue() {
        seed();

        CliRig.Run run = cli.run("list", "--queue", "order-placed-emial");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).doesNotContain("No dead letters match");
        assertThat(run.err())
                .startsWith("redrive list: unknown queue 'order-placed-emial': did you mean 'order-placed-email'?")
                .contains("order-placed-email");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void aKnownQueueWithNoMatchesStillSaysSo() {
        seed();

        CliRig.Run run = cli.run("list", "--queue", "order-placed-email", "--class", "SCHEMA");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("No dead letters match");
    }

    @Test
    void theDeadLetterQueuesOwnNameListsItsSourceQueueAndSaysSo() {
        seed();

        CliRig.Run run = cli.run("list", "--queue", "order-placed-email-dlq");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("q-1");
        assertThat(run.err())
                .contains("order-placed-email-dlq is the dead-letter queue of order-placed-email")
                .contains("order-placed-email");
    }

    @Test
    void aMistypedQueueInAReplayOrArchiveFilterIsAnErrorNotNothingToDo() {
        seed();

        CliRig.Run replay = cli.run("replay", "--filter", "queue=order-placed-emial", "--actor", "ada");
        CliRig.Run archive = cli.run("archive", "--filter", "queue=typo", "--note", "x", "--actor", "ada");

        assertThat(replay.exitCode()).as(replay.out() + replay.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(replay.out()).doesNotContain("Nothing to replay");
        assertThat(replay.err()).contains("unknown queue 'order-placed-emial': did you mean 'order-placed-email'?");
        assertThat(archive.exitCode()).as(archive.out() + archive.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(archive.err()).contains("unknown queue 'typo'").contains("Known: order-placed-email");
        assertThat(cli.record("q-1").state()).isEqualTo(QuarantineState.QUARANTINED);
    }

    @Test
    void aMistypedStateOrClassSuggestsTheValue() {
        CliRig.Run state = cli.run("replay", "--filter", "state=QUARANTIND");
        CliRig.Run klass = cli.run("replay", "--filter", "class=TRANSIANT");

        assertThat(state.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(state.err()).contains("did you mean 'QUARANTINED'?");
        assertThat(klass.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(klass.err()).contains("did you mean 'TRANSIENT'?");
    }

    @Test
    void aWindowForAMistypedDependencyIsRefusedNamingTheKnownOnes() {
        CliRig.Run run = cli.run(
                "window",
                "add",
                "--dependency",
                "emial-provider",
                "--start",
                "now",
                "--end",
                "now+2h",
                "--reason",
                "CHG-1",
                "--actor",
                "ada");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("unknown dependency 'emial-provider': did you mean 'email-provider'?");
        assertThat(cli.windows.list()).isEmpty();
    }

    @Test
    void aMisspeltCommandGetsASuggestion() {
        CliRig.Run run = cli.run("lst");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err().lines()).singleElement().asString().contains("did you mean 'list'?");
    }

    @Test
    void aPoisonDeadLetterIsNotReplayedWithoutAllowClassEvenWithYes() {
        cli.deadLetter("q-p", Orders.v2("e-p", 100), FailureClass.POISON, "ConsumerCrashed", Duration.ofHours(1));

        CliRig.Run refused = cli.run("replay", "q-p", "--yes", "--actor", "ada");

        assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err())
                .contains("q-p", "POISON", "ConsumerCrashed from the mail provider")
                .contains("--allow-class POISON");
        assertThat(cli.sender.sent()).isEmpty();
        assertThat(cli.record("q-p").state()).isEqualTo(QuarantineState.QUARANTINED);

        CliRig.Run allowed = cli.run("replay", "q-p", "--allow-class", "POISON", "--actor", "ada");

        assertThat(allowed.exitCode()).as(allowed.out() + allowed.err()).isZero();
        assertThat(allowed.err()).contains("warning: q-p failed as POISON").contains("ConsumerCrashed");
        assertThat(cli.sender.sent()).hasSize(1);
    }

    @Test
    void aFilterThatTakesInPermanentDeadLettersChangesNothingWithoutAllowClass() {
        seed();
        cli.deadLetter(
                "q-perm", Orders.v2("e-2", 100), FailureClass.PERMANENT, "InvalidRecipient", Duration.ofHours(2));

        CliRig.Run run = cli.run("replay", "--filter", "queue=order-placed-email", "--actor", "ada");

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .contains("q-perm", "PERMANENT", "InvalidRecipient")
                .contains("--allow-class PERMANENT");
        assertThat(cli.record("q-1").state()).isEqualTo(QuarantineState.QUARANTINED);
        assertThat(cli.sender.sent()).isEmpty();
    }

    @Test
    void alreadyReplayedAndAlreadyArchivedGetTheSameKindOfAnswerAndExitCode() {
        seed();
        cli.deadLetter("q-a", Orders.v2("e-a", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));
        assertThat(cli.run("replay", "q-1", "--actor", "ada").exitCode()).isZero();
        assertThat(cli.run("archive", "q-a", "--note", "duplicate order", "--actor", "bo")
                        .exitCode())
                .isZero();

        CliRig.Run replayed = cli.run("replay", "q-1", "--actor", "ada");
        CliRig.Run archived = cli.run("replay", "q-a", "--actor", "ada");

        assertThat(replayed.exitCode()).isEqualTo(archived.exitCode()).isEqualTo(ExitCodes.PARTIAL);
        assertThat(replayed.out()).contains("q-1", "already REPLAYED", "nothing sent");
        assertThat(archived.out()).contains("q-a", "already ARCHIVED", "nothing sent");
        assertThat(replayed.out()).contains("already resolved (nothing sent) 1");
        assertThat(archived.out()).contains("already resolved (nothing sent) 1");
        assertThat(cli.sender.sent()).hasSize(1);
    }

    @Test
    void missingCredentialsAreOneShortLineSayingWhatToSetAndTheCauseOnlyWithVerbose() {
        String imds = System.setProperty("aws.disableEc2Metadata", "true");
        try {
            Map<String, String> env = Map.of(
                    "AWS_REGION", "eu-west-1",
                    "AWS_PROFILE", "redrive-no-such-profile",
                    "AWS_ENDPOINT_URL", "http://127.0.0.1:9");

            CliRig.Run run = onAws(env, "list");
            CliRig.Run verbose = onAws(env, "list", "--verbose");

            assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFIG);
            assertThat(run.err().lines())
                    .hasSizeBetween(1, 2)
                    .allSatisfy(line -> assertThat(line.length()).as(line).isLessThan(240));
            assertThat(run.err()).contains("no AWS credentials", "AWS_PROFILE", "--verbose");
            assertThat(verbose.exitCode()).isEqualTo(ExitCodes.CONFIG);
            assertThat(verbose.err()).contains("no AWS credentials").contains("Unable to load credentials");
        } finally {
            if (imds == null) {
                System.clearProperty("aws.disableEc2Metadata");
            } else {
                System.setProperty("aws.disableEc2Metadata", imds);
            }
        }
    }

    /** The CLI on the real AWS backend, with only {@code env}. */
    private CliRig.Run onAws(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (RedriveCli root = new RedriveCli(CliContext.of(env, cli.clock, "os-user"))) {
            CommandLine cl = RedriveCli.commandLine(root);
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int code = cl.execute(args);
            return new CliRig.Run(code, out.toString(), err.toString());
        }
    }
}
