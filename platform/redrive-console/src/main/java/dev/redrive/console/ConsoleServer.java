package dev.redrive.console;

import dev.redrive.console.internal.BreakersPage;
import dev.redrive.console.internal.DeadLetterPage;
import dev.redrive.console.internal.EditRetry;
import dev.redrive.console.internal.Guard;
import dev.redrive.console.internal.Pages;
import dev.redrive.console.internal.Rendering;
import dev.redrive.console.internal.SavedViews;
import dev.redrive.console.internal.Sessions;
import dev.redrive.console.internal.WindowsPage;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import io.javalin.Javalin;
import io.javalin.http.Cookie;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.SameSite;
import io.javalin.http.UnauthorizedResponse;
import io.javalin.http.staticfiles.Location;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The operator's web console, served by {@code redrive console}: Javalin (on Jetty) on {@link ConsoleOptions#bind()}
 * (loopback by default) and a free port unless one is given, opened through a one-time URL ({@link #openUri()}) whose
 * token is exchanged for a session cookie (HttpOnly, SameSite=Strict). Every request needs that session (else 401),
 * every write also a same-origin Origin and the session's CSRF token (else 403), and a read-only console refuses every
 * write. Pages and actions go through the operator port of {@link ConsoleSources}, the CLI's own.
 */
public final class ConsoleServer implements AutoCloseable {

    private final Javalin app;
    private final Sessions sessions;
    private final ConsoleOptions options;

    private ConsoleServer(Javalin app, Sessions sessions, ConsoleOptions options) {
        this.app = app;
        this.sessions = sessions;
        this.options = options;
    }

    /** Starts the console; it serves until {@link #close()}. */
    public static ConsoleServer start(ConsoleOptions options, ConsoleSources sources) {
        Sessions sessions = new Sessions();
        AtomicInteger port = new AtomicInteger(options.port());
        Guard guard = new Guard(
                sessions, () -> cookieName(port.get()), options.loopbackOnly(), options.readOnly(), port::get);
        TemplateEngine templates = TemplateEngine.createPrecompiled(ContentType.Html);
        Pages pages = new Pages(sources, templates, options.readOnly());
        Rendering rendering = new Rendering(templates, options.readOnly());
        SavedViews savedViews = new SavedViews(options.stateDir(), sources.actor(), rendering);
        WindowsPage windows = new WindowsPage(sources, rendering);
        BreakersPage breakers = new BreakersPage(sources, rendering);
        EditRetry edits = new EditRetry(sources, rendering);
        DeadLetterPage deadLetter = new DeadLetterPage(sources, pages, options.readOnly());
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.jetty.host = options.bind();
            config.jetty.port = options.port();
            config.staticFiles.enableWebjars();
            config.staticFiles.add(files -> {
                files.hostedPath = "/assets";
                files.directory = "/dev/redrive/console/assets";
                files.location = Location.CLASSPATH;
            });
            config.routes.before(guard::check);
            config.routes.before(savedViews::attach);
            // An operator port call that fails (AWS unreachable, a missing table) is one line, never a stack trace.
            config.routes.exception(RuntimeException.class, (e, ctx) -> {
                if (e instanceof HttpResponseException answer) {
                    ctx.status(answer.getStatus()).result(answer.getMessage());
                    return;
                }
                ctx.status(HttpStatus.INTERNAL_SERVER_ERROR)
                        .contentType("text/plain; charset=utf-8")
                        .result("The console could not answer: " + e.getClass().getSimpleName() + ": "
                                + String.valueOf(e.getMessage())
                                        .lines()
                                        .findFirst()
                                        .orElse(""));
            });
            config.routes.get(Guard.OPEN_PATH, ctx -> {
                Sessions.Session session = sessions.open(ctx.queryParam("token"))
                        .orElseThrow(() -> new UnauthorizedResponse(
                                "this one-time URL is used up or wrong: run 'redrive console' again for a new one"));
                ctx.cookie(
                        new Cookie(cookieName(port.get()), session.id(), "/", -1, false, true, null, SameSite.STRICT));
                ctx.redirect("/", HttpStatus.SEE_OTHER);
            });
            // Browsers ask for /favicon.ico on answers without a page (a 403's text, say): the icon, not a 404.
            config.routes.get("/favicon.ico", ctx -> ctx.redirect("/assets/favicon.svg", HttpStatus.MOVED_PERMANENTLY));
            config.routes.get("/", pages::overview);
            config.routes.get("/api/arrivals", pages::arrivals);
            config.routes.get("/groups", pages::groups);
            config.routes.get("/dead-letters", pages::letters);
            config.routes.get("/dead-letters/{id}", deadLetter::show);
            config.routes.post("/dead-letters/{id}/reveal", deadLetter::reveal);
            config.routes.post("/dead-letters/{id}/archive", pages::archive);
            config.routes.get("/dead-letters/{id}/edit", edits::page);
            config.routes.post("/dead-letters/{id}/edit", edits::step);
            config.routes.get("/windows", windows::page);
            config.routes.post("/windows", windows::add);
            config.routes.post("/windows/{id}/remove", windows::remove);
            config.routes.post("/windows/{id}/hold", windows::hold);
            config.routes.get("/breakers", breakers::page);
            config.routes.post("/breakers/{dependency}/release", breakers::release);
            config.routes.post("/breakers/{dependency}/probe", breakers::probe);
            config.routes.get("/views", savedViews::page);
            config.routes.post("/views", savedViews::save);
            config.routes.post("/views/delete", savedViews::delete);
            config.routes.post("/logout", ctx -> {
                sessions.close(ctx.attribute(Guard.SESSION_ATTRIBUTE));
                ctx.html("Signed out. Run 'redrive console' again to open a new session.");
            });
        });
        app.start();
        port.set(app.port());
        return new ConsoleServer(app, sessions, options);
    }

    /** The port it listens on. */
    public int port() {
        return app.port();
    }

    /** {@code http://host:port}, the console's origin. */
    public URI origin() {
        String host = options.bind().contains(":") ? "[" + options.bind() + "]" : options.bind();
        return URI.create("http://" + host + ":" + port());
    }

    /** The one-time URL that opens a session; once it has been used, its token is empty (it opens nothing). */
    public URI openUri() {
        return origin().resolve(Guard.OPEN_PATH + "?token=" + sessions.oneTimeToken());
    }

    /** Whether writes are refused. */
    public boolean readOnly() {
        return options.readOnly();
    }

    /** Stops serving. */
    @Override
    public void close() {
        app.stop();
    }

    /** Cookies ignore ports: each console names its own, so two consoles on one machine keep separate sessions. */
    private static String cookieName(int port) {
        return "redrive_console_" + port;
    }
}
