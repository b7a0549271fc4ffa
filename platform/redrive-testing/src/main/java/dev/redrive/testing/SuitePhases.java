package dev.redrive.testing;

import java.util.function.Supplier;

/**
 * Times the test suite's expensive phases (a local AWS service starting, a CDK synth, a sandbox starting) and prints
 * one line per phase to standard output when {@link #ENABLED_PROPERTY} is on, {@code redrive-phase: <phase> <millis>
 * ms}, which {@code bin/ci-summary}
 * adds up per phase at the end of {@code .ci/run}: where the suite's time goes, beside the slowest classes. Stateless:
 * the build log is the record.
 */
public final class SuitePhases {

    /**
     * The system property that turns the lines on ({@code true}): the build sets it for every test JVM (the root pom's
     * surefire configuration). Off elsewhere, so a local run ({@code bin/redrive-local}) and a user's own tests on
     * {@code LocalAws} print none. Not under {@code redrive.}: a Quarkus consumer's configuration mapping owns that
     * prefix and refuses a property it does not know.
     */
    public static final String ENABLED_PROPERTY = "dev.redrive.suite-phases";

    /** The prefix of every line this class prints; {@code bin/ci-summary} reads it. */
    public static final String PREFIX = "redrive-phase: ";

    private SuitePhases() {}

    /**
     * Runs {@code work}, prints how long it took under {@code phase} (also when it fails; only when {@link
     * #ENABLED_PROPERTY} is on), and returns its result.
     */
    public static <T> T timed(String phase, Supplier<T> work) {
        long started = System.nanoTime();
        try {
            return work.get();
        } finally {
            if (Boolean.getBoolean(ENABLED_PROPERTY)) {
                System.out.println(line(phase, (System.nanoTime() - started) / 1_000_000));
            }
        }
    }

    /** The line printed for a phase that took {@code millis}. */
    public static String line(String phase, long millis) {
        if (phase.isBlank() || phase.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException(
                    "a phase is one word (bin/ci-summary splits on spaces): '" + phase + "'");
        }
        return PREFIX + phase + " " + millis + " ms";
    }
}
