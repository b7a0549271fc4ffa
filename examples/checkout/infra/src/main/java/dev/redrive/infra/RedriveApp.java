package dev.redrive.infra;

import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.StackProps;

/**
 * The CDK app: synthesizes the {@link RedriveStack} into the cloud assembly.
 *
 * <p>Run by the CDK CLI ({@code cdk.json}), which passes context and the output directory itself, or by the Maven
 * build, which passes them as system properties: {@code redrive.cdk.outdir} (the output directory) and
 * {@code redrive.context.<key>} (one context value each, empty values ignored).
 */
public final class RedriveApp {

    /** System property naming the output directory; when absent, the CDK default (the CLI's {@code CDK_OUTDIR}). */
    public static final String OUTDIR_PROPERTY = "redrive.cdk.outdir";
    /** Prefix of system properties that become context values. */
    public static final String CONTEXT_PROPERTY_PREFIX = "redrive.context.";

    private RedriveApp() {}

    public static void main(String[] args) {
        App app = new App(AppProps.builder()
                .outdir(emptyToNull(System.getProperty(OUTDIR_PROPERTY)))
                .context(contextFromSystemProperties())
                .build());
        RedriveStack stack = create(app);
        app.synth();
        if (stack.artifact().isPlaceholder()) {
            System.err.println("[redrive] synthesized with the placeholder function asset ("
                    + stack.artifact().path() + ", -c placeholderAsset=true): every invocation fails; pass "
                    + "-c functionsAsset=<function.zip> to deploy real code");
        }
    }

    /** Adds the {@code Redrive} stack, configured from the app's context, to {@code app}. */
    public static RedriveStack create(App app) {
        RedriveSettings settings = RedriveSettings.fromContext(app.getNode());
        return new RedriveStack(
                app,
                RedriveStack.NAME,
                StackProps.builder()
                        .stackName(RedriveStack.NAME)
                        .description("Redrive: exactly-once SQS-triggered Lambda consumers and a dead-letter workflow")
                        .terminationProtection(settings.protection().terminationProtection())
                        .build(),
                settings);
    }

    private static Map<String, Object> contextFromSystemProperties() {
        Map<String, Object> context = new TreeMap<>();
        System.getProperties().forEach((k, v) -> {
            String key = k.toString();
            if (key.startsWith(CONTEXT_PROPERTY_PREFIX) && !v.toString().isBlank()) {
                context.put(key.substring(CONTEXT_PROPERTY_PREFIX.length()), v.toString());
            }
        });
        return context;
    }

    private static String emptyToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
