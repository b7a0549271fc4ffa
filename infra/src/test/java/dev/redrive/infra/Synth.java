package dev.redrive.infra;

import java.util.HashMap;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Template;

/** Synthesizes the Redrive stack for tests; the default one once per JVM (synthesis takes seconds). */
final class Synth {

    private static TemplateView defaults;

    private Synth() {
    }

    /** The stack with every setting at its default. */
    static synchronized TemplateView defaults() {
        if (defaults == null) {
            defaults = new TemplateView(Template.fromStack(stack(Map.of())));
        }
        return defaults;
    }

    /** The stack for these context values (the placeholder goes under target/). */
    static RedriveStack stack(Map<String, Object> context) {
        Map<String, Object> ctx = new HashMap<>(context);
        ctx.putIfAbsent("placeholderDirectory", "target/test-function-placeholder");
        return RedriveApp.create(new App(AppProps.builder().context(ctx).build()));
    }
}
