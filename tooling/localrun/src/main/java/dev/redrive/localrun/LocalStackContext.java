package dev.redrive.localrun;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The CDK context of the stack the local run synthesizes, read from {@code tooling/localrun/local-stack.properties}: the one
 * place that says how that file becomes a context, for {@code bin/redrive-local} (through {@link #main}) and for the
 * tests that synthesize the same stack.
 *
 * <p>The rule: every key without the {@value #CHAOS_PREFIX} prefix is the demo stack's; the chaos scenario's stack is
 * the same with each {@code chaos.<key>} replacing {@code <key>}, and {@value #CHAOS_TIMEOUT_VARIABLE}, when set,
 * replacing its {@code consumerTimeout}. Other scenarios ignore both. The file is read as a Java properties file
 * (escapes, continuation lines; a key given twice keeps its last value).
 */
public final class LocalStackContext {

    /** The prefix of the keys that only the chaos scenario's stack uses. */
    public static final String CHAOS_PREFIX = "chaos.";

    /** The environment variable that overrides the chaos stack's consumer timeout (an ISO-8601 duration). */
    public static final String CHAOS_TIMEOUT_VARIABLE = "REDRIVE_CHAOS_CONSUMER_TIMEOUT";

    /**
     * The context keys a test run of the incident replaces to compress its waits (the split does not depend on them):
     * the mail provider's breaker opens for 1 s up to 2 s with a probe's lease of 3 s, instead of the demo stack's 5 s up
     * to 20 s and 30 s, which held most of the outage's and the recovery's wall time. {@code bin/redrive-local} keeps
     * the file's values.
     */
    public static final Map<String, String> COMPRESSED_BREAKER =
            Map.of("breakerOpenPeriod", "PT1S", "breakerMaxOpenPeriod", "PT2S", "breakerProbeLease", "PT3S");

    /**
     * The consumers' timeout in the build's run of the incident: the CDK constructs' default timeout is 30 s; the demo
     * stack's 6 s (and the chaos stack's 10 s) shortens the waits a person watches. The build runs up to five whole
     * systems at once on two cores, where a fresh sandbox's first batch can outlast a short timeout, and each timeout
     * resets the sandbox into another cold start. Two CI runs showed it: with 6 s, both normal orders of the email
     * consumer dead-lettered after about four visibility periods, as a string of timeouts would; with 10 s, the email
     * consumer's first invocations took 9.4 to 10.0 s and one timed out (the dlq-sweeper's took 16 s).
     */
    public static final String BUILD_CONSUMER_TIMEOUT = "PT20S";

    /**
     * The context keys the build's run of the incident replaces ({@code LocalRunPracticeTest}): {@link
     * #COMPRESSED_BREAKER}, and {@link #BUILD_CONSUMER_TIMEOUT} instead of the demo's
     * consumer timeout. {@code bin/redrive-local}, which runs alone, keeps the demo's values.
     */
    public static Map<String, String> forTheBuildsIncidentRun() {
        Map<String, String> overrides = new TreeMap<>(COMPRESSED_BREAKER);
        overrides.put("consumerTimeout", BUILD_CONSUMER_TIMEOUT);
        return overrides;
    }

    private LocalStackContext() {}

    /**
     * The context for a scenario's stack.
     *
     * @param file        the properties file ({@code tooling/localrun/local-stack.properties})
     * @param chaos       whether the stack is the chaos scenario's
     * @param environment the process environment ({@link System#getenv()}), for {@value #CHAOS_TIMEOUT_VARIABLE}
     * @return the context, keys in order
     */
    public static Map<String, String> of(Path file, boolean chaos, Map<String, String> environment) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the local stack's context " + file, e);
        }
        Map<String, String> context = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (!key.startsWith(CHAOS_PREFIX)) {
                context.put(key, properties.getProperty(key));
            }
        }
        if (chaos) {
            for (String key : properties.stringPropertyNames()) {
                if (key.startsWith(CHAOS_PREFIX) && key.length() > CHAOS_PREFIX.length()) {
                    context.put(key.substring(CHAOS_PREFIX.length()), properties.getProperty(key));
                }
            }
            String timeout = environment.get(CHAOS_TIMEOUT_VARIABLE);
            if (timeout != null && !timeout.isBlank()) {
                context.put("consumerTimeout", timeout.strip());
            }
        }
        return context;
    }

    /**
     * Prints the context as {@code key=value} lines, for {@code bin/redrive-local}.
     *
     * @param args the properties file, then {@code chaos} for the chaos scenario's stack or {@code demo} for the others
     */
    public static void main(String[] args) {
        if (args.length != 2 || !(args[1].equals("chaos") || args[1].equals("demo"))) {
            System.err.println("usage: LocalStackContext <local-stack.properties> chaos|demo");
            System.exit(2);
        }
        print(of(Path.of(args[0]), args[1].equals("chaos"), System.getenv()), System.out);
    }

    static void print(Map<String, String> context, PrintStream out) {
        context.forEach((key, value) -> {
            if (value.contains("\n") || value.contains("\r")) {
                throw new IllegalArgumentException("the local stack's context key " + key + " has a line break");
            }
            out.println(key + "=" + value);
        });
    }
}
