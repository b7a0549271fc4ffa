package dev.redrive.cli;

import dev.redrive.core.replay.ReplaySender;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * What the CLI reads from the world it runs in, passed in rather than read from globals, so the same commands run
 * in-process in tests against local AWS: the environment (AWS endpoints, region, credentials and the {@code REDRIVE_*}
 * names), the clock, whether output goes to a terminal, the OS user, and a flag a Ctrl-C sets to stop a bulk run
 * between two messages.
 *
 * @param env           environment variables
 * @param clock         the time
 * @param tty           whether stdout/stderr are a terminal (progress bars, confirmation prompts)
 * @param osUser        the OS user, the actor of last resort
 * @param senderWrapper wraps the replay sender (identity in production; tests use it to simulate an abort mid-run)
 * @param stop          set when the operator asks the run to stop (Ctrl-C): a bulk run stops before the next message
 */
public record CliContext(
        Map<String, String> env,
        Clock clock,
        boolean tty,
        String osUser,
        UnaryOperator<ReplaySender> senderWrapper,
        AtomicBoolean stop) {

    public CliContext {
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(senderWrapper, "senderWrapper");
        Objects.requireNonNull(stop, "stop");
        osUser = osUser == null || osUser.isBlank() ? "unknown-user" : osUser;
    }

    /** The context of a real run: this process's environment, the system clock, the console. */
    public static CliContext system() {
        boolean tty = System.console() != null && !"false".equals(System.getProperty("redrive.cli.tty"));
        return new CliContext(
                System.getenv(),
                Clock.systemUTC(),
                tty,
                System.getProperty("user.name"),
                UnaryOperator.identity(),
                new AtomicBoolean());
    }

    /** A context for tests and embedding: no terminal, the given environment and clock. */
    public static CliContext of(Map<String, String> env, Clock clock, String osUser) {
        return new CliContext(env, clock, false, osUser, UnaryOperator.identity(), new AtomicBoolean());
    }

    public CliContext withSenderWrapper(UnaryOperator<ReplaySender> wrapper) {
        return new CliContext(env, clock, tty, osUser, wrapper, stop);
    }

    /** An environment variable, empty or blank counting as absent. */
    public Optional<String> var(String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
    }

    /** Whether the operator asked to stop, or the thread was interrupted. */
    public boolean stopRequested() {
        return stop.get() || Thread.currentThread().isInterrupted();
    }
}
