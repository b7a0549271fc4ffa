package dev.redrive.console;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * How the console is served: the address it binds (loopback unless the operator says otherwise), the port (0: a free
 * one chosen when it starts) and whether it is read-only (every write refused, no write control shown).
 *
 * @param bind     the address to bind, {@code 127.0.0.1} by default
 * @param port     the port, 0 for a free one
 * @param readOnly whether every write (POST, PUT, PATCH, DELETE) is refused with 403
 */
public record ConsoleOptions(String bind, int port, boolean readOnly) {

    /** The loopback address the console binds unless told otherwise. */
    public static final String LOOPBACK = "127.0.0.1";

    public ConsoleOptions {
        Objects.requireNonNull(bind, "bind");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0 (a free one) to 65535, not " + port);
        }
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
