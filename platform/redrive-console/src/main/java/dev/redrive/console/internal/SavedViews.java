package dev.redrive.console.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.quarantine.Actor;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Saved views: a name for the URL of a page's filters (the URL holds them), kept per operator in the console's state
 * ({@value #FILE} under the state directory, {@code --state-dir}), listed in every page's navigation, deletable. A view
 * is a path of this console ({@code /groups?queue=orders}), never another site's URL.
 */
public final class SavedViews {

    /** The file under the state directory. */
    public static final String FILE = "saved-views.json";
    /** Where a request's views and URL are kept for the page frame. */
    static final String ATTRIBUTE = "redrive.saved-views";
    /** The longest name a view may have. */
    static final int NAME_LIMIT = 80;

    private static final TypeReference<Map<String, List<SavedView>>> TYPE = new TypeReference<>() {};

    /** The file the views are kept in; empty: no state directory (no HOME), kept in memory for this console's life. */
    private final Optional<Path> file;

    private Map<String, List<SavedView>> inMemory = new LinkedHashMap<>();
    private final Supplier<Actor> operator;
    private final Rendering rendering;
    private final ObjectMapper json = new ObjectMapper();

    public SavedViews(Optional<Path> stateDir, Supplier<Actor> operator, Rendering rendering) {
        this.file = stateDir.map(dir -> dir.resolve(FILE));
        this.operator = operator;
        this.rendering = rendering;
    }

    /** One saved view: its name and the console path with its filters. */
    public record SavedView(String name, String url) {}

    /** What a page's frame shows: the operator's views, and the current page's URL (what saving would save). */
    public record Nav(List<SavedView> views, String here) {

        /** No views, nothing to save (a page built without the before-handler). */
        public static final Nav NONE = new Nav(List.of(), "");
    }

    /** The views page: the operator's views, and why the last save was refused. */
    public record View(List<SavedView> views, String error) {}

    /** The before-handler of pages: the operator's views and the URL being read, for the frame. */
    public void attach(Context ctx) {
        String path = ctx.path();
        if (!"GET".equals(ctx.method().name())
                || path.startsWith("/assets/")
                || path.startsWith("/webjars/")
                || path.startsWith("/api/")) {
            return;
        }
        String query = ctx.queryString();
        ctx.attribute(ATTRIBUTE, new Nav(list(), ctx.path() + (query == null || query.isEmpty() ? "" : "?" + query)));
    }

    /** The frame's part of a request: the views and its URL ({@link Nav#NONE} when not attached). */
    static Nav nav(Context ctx) {
        Nav nav = ctx.attribute(ATTRIBUTE);
        return nav == null ? Nav.NONE : nav;
    }

    /** {@code GET /views}. */
    public void page(Context ctx) {
        show(ctx, "");
    }

    /** {@code POST /views}: saves {@code name} for {@code url}; the same name again replaces it. Then opens it. */
    public void save(Context ctx) {
        String name = Objects.requireNonNullElse(ctx.formParam("name"), "").strip();
        String url = Objects.requireNonNullElse(ctx.formParam("url"), "").strip();
        String refusal = refusal(name, url);
        if (refusal != null) {
            ctx.status(HttpStatus.BAD_REQUEST);
            show(ctx, refusal);
            return;
        }
        synchronized (this) {
            Map<String, List<SavedView>> all = read();
            List<SavedView> mine = new ArrayList<>(all.getOrDefault(me(), List.of()));
            mine.removeIf(v -> v.name().equals(name));
            mine.add(new SavedView(name, url));
            all.put(me(), mine);
            write(all);
        }
        ctx.redirect(url, HttpStatus.SEE_OTHER);
    }

    /** {@code POST /views/delete}: deletes the operator's view {@code name}. */
    public void delete(Context ctx) {
        String name = Objects.requireNonNullElse(ctx.formParam("name"), "").strip();
        boolean deleted;
        synchronized (this) {
            Map<String, List<SavedView>> all = read();
            List<SavedView> mine = new ArrayList<>(all.getOrDefault(me(), List.of()));
            deleted = mine.removeIf(v -> v.name().equals(name));
            if (deleted) {
                all.put(me(), mine);
                write(all);
            }
        }
        if (!deleted) {
            ctx.status(HttpStatus.NOT_FOUND);
            show(
                    ctx,
                    dev.redrive.core.names.UnknownName.message(
                            "saved view",
                            name,
                            list().stream().map(SavedView::name).toList(),
                            null));
            return;
        }
        ctx.redirect("/views", HttpStatus.SEE_OTHER);
    }

    /** The operator's views, in the order saved. */
    synchronized List<SavedView> list() {
        return List.copyOf(read().getOrDefault(me(), List.of()));
    }

    private void show(Context ctx, String error) {
        rendering.render(ctx, "views.jte", rendering.frame("Saved views", "views", ctx), new View(list(), error));
    }

    /** Why a view cannot be saved, or null. */
    private static String refusal(String name, String url) {
        if (name.isEmpty() || name.length() > NAME_LIMIT || name.chars().anyMatch(Character::isISOControl)) {
            return "a saved view needs a name of 1 to " + NAME_LIMIT + " characters on one line";
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            return "a saved view is a page of this console (/groups?queue=...), not '" + url + "'";
        }
        if (uri.getScheme() != null
                || uri.getRawAuthority() != null
                || !url.startsWith("/")
                || url.startsWith("//")
                || url.chars().anyMatch(Character::isISOControl)) {
            return "a saved view is a page of this console (/groups?queue=...), not '" + url + "'";
        }
        return null;
    }

    private String me() {
        return operator.get().name();
    }

    private Map<String, List<SavedView>> read() {
        if (file.isEmpty()) {
            return new LinkedHashMap<>(inMemory);
        }
        Path file = this.file.get();
        if (!Files.exists(file)) {
            return new LinkedHashMap<>();
        }
        try {
            return new LinkedHashMap<>(json.readValue(file.toFile(), TYPE));
        } catch (IOException e) {
            throw new UncheckedIOException("the saved views in " + file + " could not be read", e);
        }
    }

    private void write(Map<String, List<SavedView>> all) {
        if (file.isEmpty()) {
            inMemory = new LinkedHashMap<>(all);
            return;
        }
        Path file = this.file.get();
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), FILE, ".tmp");
            json.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), all);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("the saved views could not be written to " + file, e);
        }
    }
}
