package dev.redrive.infra;

import dev.redrive.testing.SuitePhases;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Template;

/**
 * Synthesizes the Redrive stack for tests: one stack, and at most one template, per distinct context per test JVM.
 *
 * <p>Building the stack through jsii and synthesizing it take seconds each, and many test classes read the same
 * stack (the defaults, {@code runtime=native}, {@code checkoutProducer=false}, ...). So the stacks are kept by their
 * full context (after the defaults below are added) and every test that asks for the same context reads the same
 * stack and template. They are only read: a test that needs to change a stack builds its own app. A context the synth
 * refuses is never kept: each call throws again.
 */
final class Synth {

    private static final AtomicInteger APPS = new AtomicInteger();

    /** The stacks built so far, by their full context. */
    private static final Map<Map<String, Object>, Synthesized> STACKS = new HashMap<>();

    private Synth() {}

    /** A stack and, once asked for, its template. */
    private static final class Synthesized {
        final RedriveStack stack;
        TemplateView template;

        Synthesized(RedriveStack stack) {
            this.stack = stack;
        }

        TemplateView template() {
            if (template == null) {
                template = SuitePhases.timed("cdk-synth", () -> new TemplateView(Template.fromStack(stack)));
            }
            return template;
        }
    }

    /** The template of the stack with every setting at its default (that of {@code stack(Map.of())}). */
    static TemplateView defaults() {
        return template(Map.of());
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
     * Shared by every caller with the same context: read it, do not add to it.
     */
    static RedriveStack stack(Map<String, Object> context) {
        return asGiven(withTestDefaults(context));
    }

    /** The template of {@link #stack(Map)} for these context values, synthesized once per JVM. */
    static synchronized TemplateView template(Map<String, Object> context) {
        return synthesized(withTestDefaults(context)).template();
    }

    /**
     * The stack for exactly these context values (only the placeholder's directory is added, under target/). Shared by
     * every caller with the same context: read it, do not add to it.
     */
    static synchronized RedriveStack asGiven(Map<String, Object> context) {
        return synthesized(context).stack;
    }

    /** The template of {@link #asGiven(Map)} for these context values, synthesized once per JVM. */
    static synchronized TemplateView templateAsGiven(Map<String, Object> context) {
        return synthesized(context).template();
    }

    private static Map<String, Object> withTestDefaults(Map<String, Object> context) {
        Map<String, Object> ctx = new HashMap<>(context);
        ctx.putIfAbsent("placeholderAsset", "true");
        ctx.putIfAbsent("paymentProviderUrl", PAYMENT_PROVIDER_URL);
        return ctx;
    }

    private static Synthesized synthesized(Map<String, Object> context) {
        Map<String, Object> ctx = new HashMap<>(context);
        ctx.putIfAbsent("placeholderDirectory", "target/test-function-placeholder");
        Map<String, Object> key = Map.copyOf(ctx);
        Synthesized known = STACKS.get(key);
        if (known == null) {
            // RedriveApp.create throws for a context it refuses: nothing is kept, and the next call throws again.
            known = new Synthesized(SuitePhases.timed(
                    "cdk-stack",
                    () -> RedriveApp.create(new App(
                            AppProps.builder().context(ctx).outdir(outdir()).build()))));
            STACKS.put(key, known);
        }
        return known;
    }
}
