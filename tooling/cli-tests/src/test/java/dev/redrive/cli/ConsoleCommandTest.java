package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.redrive.console.internal.FileRunJournal;
import dev.redrive.console.internal.RunJournal;
import dev.redrive.core.failure.FailureClass;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code redrive console} over the CLI's own backend (the in-memory fakes here): it prints a one-time URL on 127.0.0.1
 * and a free port, the URL opens a session whose overview shows the CLI's routes and dead letters, a write is taken as
 * the CLI's actor ({@code --actor}), and stopping the command stops the server.
 */
class ConsoleCommandTest {

    private static final Pattern URL = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/open\\?token=[A-Za-z0-9_-]{43}");

    private final InMemoryCli cli = new InMemoryCli();

    @TempDir
    Path stateHome;

    private final ExecutorService runner = Executors.newSingleThreadExecutor();
    private final HttpClient http =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @AfterEach
    void stop() {
        runner.shutdownNow();
    }

    @Test
    void servesTheConsoleOverTheClisOperatorPortUntilStopped() throws Exception {
        cli.deadLetter("q-1", "{}", FailureClass.PERMANENT, "InvalidRecipient", Duration.ofHours(2));
        cli.deadLetter("q-2", "{}", FailureClass.PERMANENT, "InvalidRecipient", Duration.ofHours(1));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        RedriveCli root = cli.root(CliContext.of(Map.of("XDG_STATE_HOME", stateHome.toString()), cli.clock, "os-user"));
        CommandLine cl = RedriveCli.commandLine(root);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        Future<Integer> run = runner.submit(() -> cl.execute("console", "--actor", "alice"));

        await().atMost(Duration.ofSeconds(30))
                .until(() -> URL.matcher(out.toString()).find());
        Matcher m = URL.matcher(out.toString());
        assertThat(m.find()).isTrue();
        URI open = URI.create(m.group());
        assertThat(out.toString()).contains("as alice");
        assertThat(err.toString()).isEmpty();
        assertThat(stateHome.resolve("redrive").resolve("console"))
                .as("bulk runs are journaled under $XDG_STATE_HOME by default")
                .isDirectory();

        HttpResponse<String> opened =
                http.send(HttpRequest.newBuilder(open).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(opened.statusCode()).isEqualTo(303);
        String setCookie = opened.headers().firstValue("Set-Cookie").orElseThrow();
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        HttpResponse<String> groups = http.send(
                HttpRequest.newBuilder(open.resolve("/groups"))
                        .header("Cookie", cookie)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(groups.statusCode()).isEqualTo(200);
        assertThat(groups.body()).contains("InvalidRecipient", "data-count=\"2\"", InMemoryCli.ROUTE.sourceQueue());

        String csrf = Pattern.compile("name=\"csrf-token\" content=\"([^\"]+)\"")
                .matcher(groups.body())
                .results()
                .findFirst()
                .orElseThrow()
                .group(1);
        HttpResponse<String> archived = http.send(
                HttpRequest.newBuilder(open.resolve("/dead-letters/q-1/archive"))
                        .header("Cookie", cookie)
                        .header("Origin", "http://127.0.0.1:" + open.getPort())
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("reason=sent+by+hand&_csrf=" + csrf))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(archived.statusCode()).isEqualTo(303);
        assertThat(cli.record("q-1")
                        .audit()
                        .get(cli.record("q-1").audit().size() - 1)
                        .actor()
                        .name())
                .isEqualTo("alice");

        run.cancel(true);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThatThrownBy(() ->
                                http.send(HttpRequest.newBuilder(open).build(), HttpResponse.BodyHandlers.ofString()))
                        .isInstanceOf(ConnectException.class));
    }

    @Test
    void aConsoleStartedAgainNamesItsUnfinishedBulkRunsAndOneWithoutAStateDirSaysRunsAreNotKept() throws Exception {
        Path dir = stateHome.resolve("incident");
        try (FileRunJournal journal = new FileRunJournal(dir)) { // a console that ran it, and went away
            journal.save(new RunJournal.Run(
                    "run-20261129-110000-0000abcd",
                    RunJournal.Kind.REPLAY,
                    "a selection of 1 dead letter(s)",
                    "/dead-letters",
                    "2026-11-29T11:00:00Z",
                    "alice",
                    List.of("q-1"),
                    List.of(),
                    List.of(),
                    RunJournal.Phase.RUNNING,
                    "provider back",
                    "alice",
                    "2026-11-29T11:00:00Z",
                    List.of(),
                    List.of(),
                    "",
                    "2026-11-29T11:00:00Z"));
        }

        String[] printed = serveAndStop(Map.of(), "--state-dir", dir.toString());

        assertThat(printed[0])
                .containsPattern("1 unfinished bulk run\\(s\\) in " + Pattern.quote(dir.toString())
                        + ": resume them at http://127\\.0\\.0\\.1:\\d+/bulk/runs");
        assertThat(printed[1]).isEmpty();

        String[] noHome = serveAndStop(Map.of());
        assertThat(noHome[1])
                .isEqualTo("redrive console: neither XDG_STATE_HOME nor HOME is set: bulk runs are kept in memory and "
                        + "cannot be resumed after the console stops (give --state-dir DIR)\n");
    }

    /** Runs {@code redrive console} with {@code env} until it prints its URL, stops it; returns its out and err. */
    private String[] serveAndStop(Map<String, String> env, String... options) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = RedriveCli.commandLine(cli.root(CliContext.of(env, cli.clock, "os-user")));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> args = new java.util.ArrayList<>(List.of("console", "--actor", "alice"));
        args.addAll(List.of(options));
        Future<Integer> run = runner.submit(() -> cl.execute(args.toArray(String[]::new)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> URL.matcher(out.toString()).find());
        run.cancel(true);
        return new String[] {out.toString(), err.toString()};
    }

    @Test
    void keepsItsStateInTheStateDirCreatedIfMissing(@TempDir Path temp) throws Exception {
        Path dir = temp.resolve("incident-42").resolve("console");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = RedriveCli.commandLine(cli.root(CliContext.of(Map.of(), cli.clock, "os-user")));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        Future<Integer> run =
                runner.submit(() -> cl.execute("console", "--actor", "alice", "--state-dir", dir.toString()));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> URL.matcher(out.toString()).find());
        Matcher m = URL.matcher(out.toString());
        assertThat(m.find()).isTrue();
        URI open = URI.create(m.group());
        assertThat(dir).as("created at start").isDirectory();
        assertThat(err.toString()).isEmpty();

        HttpResponse<String> opened =
                http.send(HttpRequest.newBuilder(open).build(), HttpResponse.BodyHandlers.ofString());
        String setCookie = opened.headers().firstValue("Set-Cookie").orElseThrow();
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        String page = http.send(
                        HttpRequest.newBuilder(open.resolve("/groups"))
                                .header("Cookie", cookie)
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        String csrf = Pattern.compile("name=\"csrf-token\" content=\"([^\"]+)\"")
                .matcher(page)
                .results()
                .findFirst()
                .orElseThrow()
                .group(1);
        HttpResponse<String> saved = http.send(
                HttpRequest.newBuilder(open.resolve("/views"))
                        .header("Cookie", cookie)
                        .header("Origin", "http://127.0.0.1:" + open.getPort())
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "name=timeouts&url=%2Fgroups%3Fstate%3Dall&_csrf=" + csrf))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(saved.statusCode()).isEqualTo(303);

        assertThat(dir.resolve("saved-views.json"))
                .as("the saved view is kept in --state-dir")
                .content()
                .contains("timeouts", "/groups?state=all");
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .as("the writability probe left nothing behind: the saved views, and the lock of the console "
                            + "using the directory (for its bulk runs)")
                    .containsExactlyInAnyOrder("saved-views.json", ".lock");
        }
        run.cancel(true);
    }

    @Test
    void aStateDirThatCannotBeWrittenIsRefusedNamingIt(@TempDir Path temp) throws IOException {
        Path file = Files.writeString(temp.resolve("notes.txt"), "not a directory");

        CliRig.Run onAFile = cli.run("console", "--state-dir", file.toString());
        assertThat(onAFile.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(onAFile.err())
                .contains("--state-dir " + file + " is a file, not a directory: give a directory (it is created if "
                        + "missing)");

        Path under = file.resolve("console");
        CliRig.Run underAFile = cli.run("console", "--state-dir", under.toString());
        assertThat(underAFile.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(underAFile.err())
                .contains("--state-dir " + under + " cannot be written (")
                .contains("give a directory you can write")
                .doesNotContain("Exception");
        assertThat(underAFile.out()).doesNotContain("/open?token=");
    }

    @Test
    void theHelpNamesTheStateDirAndItsDefault() {
        CliRig.Run help = cli.run("console", "--help");

        assertThat(help.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(help.out()).contains("--state-dir=DIR");
        assertThat(help.out().replaceAll("\\s+", ""))
                .as("the text as printed, whatever the line breaks")
                .contains(
                        "createdifmissing;default$XDG_STATE_HOME/redrive/console,else~/.local/state/redrive/console.");
    }

    @Test
    void refusesAPortOutOfRange() {
        CliRig.Run bad = cli.run("console", "--port", "70000");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("port must be 0 (a free one) to 65535");
    }
}
