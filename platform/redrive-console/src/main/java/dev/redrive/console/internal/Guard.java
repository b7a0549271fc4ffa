package dev.redrive.console.internal;

import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.HandlerType;
import io.javalin.http.UnauthorizedResponse;
import java.util.Locale;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Runs before every request, static files included: the security headers on every answer; on a loopback console, a
 * Host header naming the loopback (a DNS-rebinding page gets 403); then a session (else 401); then, for a write, a
 * read-write console (else 403), a same-origin Origin, or Referer when the browser sent no Origin (else 403), and the
 * session's CSRF token in the {@value #CSRF_HEADER} header or the {@value #CSRF_FIELD} form field (else 403).
 */
public final class Guard {

    /** The header a script sends the CSRF token in. */
    public static final String CSRF_HEADER = "X-CSRF-Token";
    /** The form field a page's form sends the CSRF token in. */
    public static final String CSRF_FIELD = "_csrf";
    /** The path the one-time URL opens; the only one served without a session. */
    public static final String OPEN_PATH = "/open";
    /** Where a request's session is kept for the handlers. */
    public static final String SESSION_ATTRIBUTE = "redrive.session";

    /**
     * Only this server's own resources, no inline script or style, no framing, no plugins; forms post only here.
     */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; "
            + "frame-ancestors 'none'";

    private static final Set<HandlerType> READS = Set.of(HandlerType.GET, HandlerType.HEAD, HandlerType.OPTIONS);

    private final Sessions sessions;
    private final Supplier<String> cookieName;
    private final boolean loopbackOnly;
    private final boolean readOnly;
    private final IntSupplier port;

    /**
     * @param cookieName the session cookie's name, known once the port is
     * @param port       the port, known once the server has started (a free one is chosen then)
     */
    public Guard(
            Sessions sessions, Supplier<String> cookieName, boolean loopbackOnly, boolean readOnly, IntSupplier port) {
        this.sessions = sessions;
        this.cookieName = cookieName;
        this.loopbackOnly = loopbackOnly;
        this.readOnly = readOnly;
        this.port = port;
    }

    /** The before-handler. */
    public void check(Context ctx) {
        headers(ctx);
        if (loopbackOnly && !loopbackHost(ctx.header("Host"))) {
            throw new ForbiddenResponse(
                    "this console answers only to 127.0.0.1:" + port.getAsInt() + " or localhost:" + port.getAsInt());
        }
        if (OPEN_PATH.equals(ctx.path()) && ctx.method() == HandlerType.GET) {
            return;
        }
        Sessions.Session session = sessions.find(ctx.cookie(cookieName.get()))
                .orElseThrow(
                        () -> new UnauthorizedResponse(
                                "no console session: open the one-time URL 'redrive console' printed (run it again for a new one)"));
        ctx.attribute(SESSION_ATTRIBUTE, session);
        if (READS.contains(ctx.method())) {
            return;
        }
        if (readOnly) {
            throw new ForbiddenResponse("this console is read-only (started with --read-only)");
        }
        if (!sameOrigin(ctx)) {
            throw new ForbiddenResponse("a write must come from this console's own pages (Origin or Referer)");
        }
        String token = ctx.header(CSRF_HEADER);
        if (token == null && isForm(ctx)) {
            token = ctx.formParam(CSRF_FIELD);
        }
        if (!Sessions.csrfMatches(session, token)) {
            throw new ForbiddenResponse("a write needs this session's CSRF token");
        }
    }

    static void headers(Context ctx) {
        ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        ctx.header("X-Content-Type-Options", "nosniff");
        // same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with its own form posts (Fetch
        // standard, "append a request Origin header"), and the write check needs the real origin. No URL of the console
        // leaves it as a Referer either way.
        ctx.header("Referrer-Policy", "same-origin");
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Cross-Origin-Opener-Policy", "same-origin");
        ctx.header("Cross-Origin-Resource-Policy", "same-origin");
        ctx.header("Cache-Control", "no-store");
    }

    private boolean loopbackHost(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        int port = this.port.getAsInt();
        return h.equals("127.0.0.1:" + port) || h.equals("localhost:" + port) || h.equals("[::1]:" + port);
    }

    /** Origin (else Referer) names the scheme, host and port the request was sent to. */
    private static boolean sameOrigin(Context ctx) {
        String host = ctx.header("Host");
        if (host == null) {
            return false;
        }
        String self = "http://" + host.toLowerCase(Locale.ROOT);
        String origin = ctx.header("Origin");
        if (origin != null) {
            return origin.toLowerCase(Locale.ROOT).equals(self);
        }
        String referer = ctx.header("Referer");
        return referer != null && referer.toLowerCase(Locale.ROOT).startsWith(self + "/");
    }

    private static boolean isForm(Context ctx) {
        String type = ctx.contentType();
        return type != null
                && (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data"));
    }
}
