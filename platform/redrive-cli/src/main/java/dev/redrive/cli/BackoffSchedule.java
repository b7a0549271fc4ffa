package dev.redrive.cli;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.RandomSource;
import dev.redrive.core.consumer.VisibilityRule;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The retry schedule of one set of settings: per attempt (the n-th receive failing) the capped and expected delay
 * and the cumulative worst case, an optional seeded sample, and the warnings the settings deserve.
 */
final class BackoffSchedule {

    /** One attempt; the sample fields are null without a seed. */
    record Attempt(
            int attempt,
            double cappedSeconds,
            double expectedSeconds,
            double worstCumulativeSeconds,
            Integer sampleSeconds,
            Integer sampleCumulativeSeconds) {}

    private final FullJitterBackoff backoff;
    private final int receives;
    private final Duration retention;
    private final Duration visibility;
    private final Duration functionTimeout;
    private final Duration deadLetterRetention;
    private final List<Attempt> attempts = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    /**
     * @param functionTimeout     null when unknown (the visibility check is then skipped)
     * @param deadLetterRetention null when unknown
     * @param sample              null for no sample
     */
    BackoffSchedule(
            FullJitterBackoff backoff,
            int receives,
            Duration retention,
            Duration visibility,
            Duration functionTimeout,
            Duration deadLetterRetention,
            RandomSource sample) {
        this.backoff = backoff;
        this.receives = receives;
        this.retention = retention;
        this.visibility = visibility;
        this.functionTimeout = functionTimeout;
        this.deadLetterRetention = deadLetterRetention;
        double processing = functionTimeout == null ? 0 : functionTimeout.toMillis() / 1000.0;
        double worst = 0;
        int sampled = 0;
        for (int n = 1; n <= receives; n++) {
            double capped = backoff.cappedSeconds(n);
            worst += Math.max(visibility.toSeconds(), processing + capped);
            Integer draw = sample == null ? null : backoff.delaySeconds(n, sample);
            sampled += draw == null ? 0 : draw;
            attempts.add(
                    new Attempt(n, capped, backoff.expectedSeconds(n), worst, draw, draw == null ? null : sampled));
        }
        warn(worst, processing);
    }

    private void warn(double worst, double processing) {
        if (worst > retention.toSeconds()) {
            warnings.add("with maxReceiveCount " + receives + " the worst case before the DLQ ("
                    + Durations.seconds(worst) + ") exceeds the queue's retention (" + Durations.format(retention)
                    + "): a message can expire, and be lost, before it reaches the DLQ. Raise the retention, or "
                    + "lower --max-delay or maxReceiveCount");
        }
        if (functionTimeout != null && !VisibilityRule.holds(visibility, functionTimeout)) {
            int factor = VisibilityRule.FACTOR;
            warnings.add("the visibility timeout (" + Durations.format(visibility) + ") is under " + factor
                    + "x the function timeout (" + Durations.format(functionTimeout) + " x " + factor + " = "
                    + Durations.format(VisibilityRule.minimum(functionTimeout)) + "): AWS recommends at least "
                    + factor + "x for SQS "
                    + "event sources, or messages in flight are delivered again while still being processed");
        }
        if (deadLetterRetention != null && deadLetterRetention.compareTo(retention) <= 0) {
            warnings.add("the DLQ keeps messages " + Durations.format(deadLetterRetention) + ", no longer than its "
                    + "source (" + Durations.format(retention) + "): a standard queue's dead letter keeps its "
                    + "original enqueue time, so it can expire as soon as it arrives. Make the DLQ's retention "
                    + "longer than the source's");
        }
    }

    FullJitterBackoff backoff() {
        return backoff;
    }

    int receives() {
        return receives;
    }

    Duration retention() {
        return retention;
    }

    Duration visibility() {
        return visibility;
    }

    List<Attempt> attempts() {
        return List.copyOf(attempts);
    }

    List<String> warnings() {
        return List.copyOf(warnings);
    }

    void print(PrintWriter out, String source, Integer seed) {
        out.println("Backoff: base " + Durations.format(backoff.base()) + ", multiplier " + backoff.multiplier()
                + ", max delay " + Durations.format(backoff.maxDelay()) + "; maxReceiveCount " + receives
                + ", retention " + Durations.format(retention) + ", visibility timeout "
                + Durations.format(visibility)
                + (functionTimeout == null ? "" : ", function timeout " + Durations.format(functionTimeout)) + source);
        out.println();
        boolean sampled = seed != null;
        List<String> headers = new ArrayList<>(List.of("ATTEMPT", "CAPPED DELAY", "EXPECTED", "WORST CASE SO FAR"));
        if (sampled) {
            headers.addAll(List.of("SAMPLE (seed " + seed + ")", "SAMPLE SO FAR"));
        }
        Table table = new Table(headers);
        for (Attempt a : attempts) {
            if (sampled) {
                table.row(
                        a.attempt(),
                        Durations.seconds(a.cappedSeconds()),
                        Durations.seconds(a.expectedSeconds()),
                        Durations.seconds(a.worstCumulativeSeconds()),
                        a.sampleSeconds() + "s",
                        Durations.seconds(a.sampleSeconds() == null ? 0 : a.sampleCumulativeSeconds()));
            } else {
                table.row(
                        a.attempt(),
                        Durations.seconds(a.cappedSeconds()),
                        Durations.seconds(a.expectedSeconds()),
                        Durations.seconds(a.worstCumulativeSeconds()));
            }
        }
        table.print(out);
        Attempt last = attempts.get(attempts.size() - 1);
        double expected =
                attempts.stream().mapToDouble(Attempt::expectedSeconds).sum();
        out.println();
        out.println("After attempt " + receives + " fails, the next receive moves the message to the DLQ: at most "
                + Durations.seconds(last.worstCumulativeSeconds()) + " after it was first received (delays alone "
                + "average " + Durations.seconds(expected) + ").");
        if (functionTimeout == null) {
            out.println("Pass --function-timeout to include processing time and check the visibility timeout.");
        }
        for (String w : warnings) {
            out.println("WARNING: " + w + ".");
        }
        if (warnings.isEmpty()) {
            out.println("No warnings.");
        }
        out.flush();
    }
}
