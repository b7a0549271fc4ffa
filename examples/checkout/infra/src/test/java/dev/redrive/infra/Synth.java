package dev.redrive.infra;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Template;

/** Synthesizes the Redrive stack for tests; the default one once per JVM (synthesis takes seconds). */
final class Synth {

    private static final AtomicInteger APPS = new AtomicInteger();
    private static TemplateView defaults;

    private Synth() {}

    /** The stack with every setting at its default. */
    static synchronized TemplateView defaults() {
        if (defaults == null) {
            defaults = new TemplateView(Template.fromStack(stack(Map.of())));
        }
        return defaults;
    }

    /** A fresh cloud assembly directory under target/ (the CDK default is a new temporary directory per app). */
    static String outdir() {
        return Path.of("target", "test-cdk.out", Integer.toString(APPS.incrementAndGet()))
                .toString();
    }

    /**
     * The provider URL the tests' stacks give the checkout unless a test gives its own: the synth refuses the checkout
     * without one ({@code -c paymentProviderUrl}).
     */
    static final String PAYMENT_PROVIDER_URL = "https://payments.test.invalid/";

    /**
     * The stack for these context values, with the placeholder asset asked for explicitly ({@code placeholderAsset},
     * written under target/) and {@link #PAYMENT_PROVIDER_URL} unless given: what most tests need to read a template.
     */
    static RedriveStack stack(Map<String, Object> context) {
        Map<String, Object> ctx = new HashMap<>(context);
        ctx.putIfAbsent("placeholderAsset", "true");
        ctx.putIfAbsent("paymentProviderUrl", PAYMENT_PROVIDER_URL);
        return asGiven(ctx);
    }

    /** The stack for exactly these context values (only the placeholder's directory is added, under target/). */
    static RedriveStack asGiven(Map<String, Object> context) {
        Map<String, Object> ctx = new HashMap<>(context);
        ctx.putIfAbsent("placeholderDirectory", "target/test-function-placeholder");
        return RedriveApp.create(
                new App(AppProps.builder().context(ctx).outdir(outdir()).build()));
    }
}
