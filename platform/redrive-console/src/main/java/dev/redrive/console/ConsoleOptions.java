package dev.redrive.console;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How the console is served: the address it binds (loopback unless the operator says otherwise), the port (0: a free
 * one chosen when it starts) and whether it is read-only (every write refused, no write control shown).
 *
 * @param bind     the address to bind, {@code 127.0.0.1} by default
 * @param port     the port, 0 for a free one
 * @param readOnly whether every write (POST, PUT, PATCH, DELETE) is refused with 403
 * @param stateDir where bulk runs are journaled, so a console started again can resume them; empty: kept in memory,
 *     lost with the process
 */
public record ConsoleOptions(String bind, int port, boolean readOnly, Optional<Path> stateDir) {

    /** The loopback address the console binds unless told otherwise. */
    public static final String LOOPBACK = "127.0.0.1";

    public ConsoleOptions {
        Objects.requireNonNull(bind, "bind");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0 (a free one) to 65535, not " + port);
        }
        Objects.requireNonNull(stateDir, "stateDir");
    }

    /** Served as given, bulk runs kept in memory only. */
    public ConsoleOptions(String bind, int port, boolean readOnly) {
        this(bind, port, readOnly, Optional.empty());
    }

    /** These options with bulk runs journaled in {@code dir}. */
    public ConsoleOptions withStateDir(Path dir) {
        return new ConsoleOptions(bind, port, readOnly, Optional.of(dir));
    }

    /**
     * The per-user directory bulk runs are journaled in by default: {@code $XDG_STATE_HOME/redrive/console} when that
     * variable is an absolute path, else {@code $HOME/.local/state/redrive/console}; empty when {@code env} has neither.
     */
    public static Optional<Path> defaultStateDir(Map<String, String> env) {
        String xdg = env.getOrDefault("XDG_STATE_HOME", "");
        String home = env.getOrDefault("HOME", "");
        Path base;
        if (!xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            base = Path.of(xdg);
        } else if (!home.isBlank()) {
            base = Path.of(home, ".local", "state");
        } else {
            return Optional.empty();
        }
        return Optional.of(base.resolve("redrive").resolve("console"));
    }

    /** On 127.0.0.1, a free port, read and write. */
    public static ConsoleOptions loopback() {
        return new ConsoleOptions(LOOPBACK, 0, false);
    }

    /** Whether {@link #bind} is a loopback address (reachable from this machine only). */
    public boolean loopbackOnly() {
        try {
            return InetAddress.getByName(bind).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
