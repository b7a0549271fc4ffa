package dev.redrive.console;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * How the console is served: the address it binds (loopback unless the operator says otherwise), the port (0: a free
 * one chosen when it starts) and whether it is read-only (every write refused, no write control shown).
 *
 * @param bind     the address to bind, {@code 127.0.0.1} by default
 * @param port     the port, 0 for a free one
 * @param readOnly whether every write (POST, PUT, PATCH, DELETE) is refused with 403
 * @param stateDir where the console keeps its state (the operators' saved views): {@code --state-dir}, by default
 *                 {@link #defaultStateDir}
 */
public record ConsoleOptions(String bind, int port, boolean readOnly, Path stateDir) {

    /** The loopback address the console binds unless told otherwise. */
    public static final String LOOPBACK = "127.0.0.1";

    public ConsoleOptions {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(stateDir, "stateDir");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0 (a free one) to 65535, not " + port);
        }
    }

    /** These options, with the state in {@link #defaultStateDir} of this process's environment. */
    public ConsoleOptions(String bind, int port, boolean readOnly) {
        this(bind, port, readOnly, defaultStateDir(System.getenv(), System.getProperty("user.home")));
    }

    /** On 127.0.0.1, a free port, read and write. */
    public static ConsoleOptions loopback() {
        return new ConsoleOptions(LOOPBACK, 0, false);
    }

    /** These options with the state kept in {@code dir}. */
    public ConsoleOptions withStateDir(Path dir) {
        return new ConsoleOptions(bind, port, readOnly, dir);
    }

    /**
     * {@code $XDG_STATE_HOME/redrive/console} when {@code XDG_STATE_HOME} is set (and absolute, as the XDG base
     * directory specification asks), else {@code ~/.local/state/redrive/console}.
     */
    public static Path defaultStateDir(Map<String, String> env, String userHome) {
        String xdg = env.get("XDG_STATE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "redrive", "console");
        }
        return Path.of(userHome, ".local", "state", "redrive", "console");
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
