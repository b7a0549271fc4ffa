package dev.redrive.console.internal;

import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.http.Context;
import java.util.Map;

/**
 * Renders a page of the windows, breakers and saved views with its frame (title, current navigation entry, the
 * session's CSRF token, read-only or not, the operator's saved views).
 */
public final class Rendering {

    private final TemplateEngine templates;
    private final boolean readOnly;

    public Rendering(TemplateEngine templates, boolean readOnly) {
        this.templates = templates;
        this.readOnly = readOnly;
    }

    boolean readOnly() {
        return readOnly;
    }

    Views.Frame frame(String title, String nav, Context ctx) {
        Sessions.Session session = ctx.attribute(Guard.SESSION_ATTRIBUTE);
        return new Views.Frame(title, nav, session == null ? "" : session.csrf(), readOnly, SavedViews.nav(ctx));
    }

    void render(Context ctx, String template, Views.Frame frame, Object view) {
        StringOutput out = new StringOutput();
        templates.render(template, Map.of("frame", frame, "view", view), out);
        ctx.html(out.toString());
    }
}
