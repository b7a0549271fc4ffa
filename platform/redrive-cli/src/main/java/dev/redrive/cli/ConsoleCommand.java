package dev.redrive.cli;

import dev.redrive.console.ConsoleOptions;
import dev.redrive.console.ConsoleServer;
import dev.redrive.console.ConsoleSources;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.schema.PayloadRedactor;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code redrive console}: serves the web console (module redrive-console) over this run's backend, the operator port
 * and routes every other command uses, with the operator's own identity as the actor; prints the one-time URL and
 * serves until Ctrl-C.
 */
@Command(
        name = "console",
        header = "Serve the operator's web console on 127.0.0.1 and print its one-time URL.",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = {
            "Serves the web console (overview of every route, failure groups, dead letters) on 127.0.0.1 and a free "
                    + "port, through the same operator port and settings as the other commands; every action in it is "
                    + "taken as you (--actor, else your AWS identity). Open the printed URL once: its token is "
                    + "exchanged for a session cookie, and the URL cannot be used again. Ctrl-C stops it.",
            "Bulk replays and archives started in it are journaled in --state-dir: a console started again lists "
                    + "the unfinished ones and resumes them (a dead letter replayed already is never sent again)."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  redrive console",
            "  redrive console --read-only",
            "  redrive console --port 8765",
            "  redrive console --state-dir ~/incident-42/console"
        })
final class ConsoleCommand implements Callable<Integer> {

    @ParentCommand
    RedriveCli root;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "0",
            order = 1,
            description = "The port to serve on; default: a free one.")
    int port;

    @Option(
            names = "--read-only",
            order = 2,
            description = "Refuse every write (replay, archive, windows...) and show no write control.")
    boolean readOnly;

    @Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            defaultValue = ConsoleOptions.LOOPBACK,
            order = 3,
            description = "The address to listen on; default ${DEFAULT-VALUE}. Anything but a loopback address lets "
                    + "other machines reach the console (still behind its token): a warning is printed.")
    String bind;

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            order = 4,
            description = "Where the console keeps its state: bulk runs (their frozen ids, reason, progress), so a "
                    + "console started again resumes them, and the operators' saved views; created if missing; "
                    + "default $XDG_STATE_HOME/redrive/console, else ~/.local/state/redrive/console.")
    Path stateDir;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ConsoleOptions options;
        try {
            options = new ConsoleOptions(bind, port, readOnly);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        Optional<Path> state = stateDir(root.context());
        if (state.isPresent()) {
            options = options.withStateDir(state.get());
        } else if (!readOnly) {
            err.println("redrive console: neither XDG_STATE_HOME nor HOME is set: bulk runs are kept in memory and "
                    + "cannot be resumed after the console stops (give --state-dir DIR)");
        }
        if (!options.loopbackOnly()) {
            err.println("redrive console: WARNING: --bind " + bind + " is not a loopback address: other machines can "
                    + "reach this console (over plain HTTP); only the one-time URL's token keeps them out.");
        }
        Backend backend = root.backend();
        Actor actor = root.actor();
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(stop::countDown, "redrive-console-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try (ConsoleServer server = start(options, backend, actor)) {
            out.println("redrive console: serving " + server.origin() + (readOnly ? " (read-only)" : "") + " as "
                    + actor.name());
            if (!readOnly && server.unfinishedRuns() > 0) {
                out.println(server.unfinishedRuns() + " unfinished bulk run(s) in " + state.orElseThrow()
                        + ": resume them at " + server.origin().resolve("/bulk/runs"));
            }
            out.println("Open this one-time URL (it works once): " + server.openUri());
            out.println("Ctrl-C stops the console.");
            out.flush();
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is stopping (Ctrl-C): the hook has run
            }
        }
        return ExitCodes.OK;
    }

    private ConsoleServer start(ConsoleOptions options, Backend backend, Actor actor) {
        ConsoleSources sources = new ConsoleSources(
                backend.operator(),
                backend.routes(),
                () -> actor,
                root.context().clock(),
                new PayloadRedactor(backend.schemas()));
        try {
            return ConsoleServer.start(options, sources);
        } catch (UncheckedIOException | IllegalStateException e) {
            throw CliException.config(e.getMessage());
        }
    }

    /**
     * {@code --state-dir}, created if missing and refused unless a file can be written in it; else the default of this
     * run's environment (created only when the console first keeps something there), empty without HOME.
     */
    private Optional<Path> stateDir(CliContext context) {
        if (stateDir == null) {
            return ConsoleOptions.defaultStateDir(context.env());
        }
        Path dir = stateDir.toAbsolutePath().normalize();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw CliException.usage("--state-dir " + stateDir + " is a file, not a directory: give a directory "
                    + "(it is created if missing)");
        }
        try {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, ".redrive-console-", ".probe"));
        } catch (IOException | SecurityException e) {
            throw CliException.usage(
                    "--state-dir " + stateDir + " cannot be written (" + why(e) + "): give a directory you can write");
        }
        return Optional.of(dir);
    }

    private static String why(Exception e) {
        if (e instanceof AccessDeniedException denied) {
            return "permission denied: " + denied.getFile();
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason() + ": " + fs.getFile();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
