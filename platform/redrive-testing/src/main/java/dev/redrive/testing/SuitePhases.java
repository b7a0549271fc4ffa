package dev.redrive.testing;

import java.util.function.Supplier;

/**
 * Times the test suite's expensive phases (a local AWS service starting, a CDK synth, a sandbox starting) and prints
 * one line per phase to standard output, {@code redrive-phase: <phase> <millis> ms}, which {@code bin/ci-summary}
 * adds up per phase at the end of {@code .ci/run}: where the suite's time goes, beside the slowest classes. Stateless:
 * the build log is the record.
 */
public final class SuitePhases {

    /** The prefix of every line this class prints; {@code bin/ci-summary} reads it. */
    public static final String PREFIX = "redrive-phase: ";

    private SuitePhases() {}

    /** Runs {@code work}, prints how long it took under {@code phase} (also when it fails), and returns its result. */
    public static <T> T timed(String phase, Supplier<T> work) {
        long started = System.nanoTime();
        try {
            return work.get();
        } finally {
            System.out.println(line(phase, (System.nanoTime() - started) / 1_000_000));
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
