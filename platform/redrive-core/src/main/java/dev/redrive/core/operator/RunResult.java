package dev.redrive.core.operator;

import java.util.Objects;
import java.util.Optional;

/**
 * How a run over several dead letters ended: how many of how many were done, whether it was stopped on request, and
 * the failure that ended it early, if one did (the dead letters after it were not touched).
 */
public record RunResult(int total, int done, boolean stopped, Optional<Failure> failure) {

    public RunResult {
        Objects.requireNonNull(failure, "failure");
    }

    /** The dead letters not reached. */
    public int left() {
        return total - done;
    }

    /** What went wrong on {@code quarantineId}: the error of an AWS call, a bug. Nothing after it was touched. */
    public record Failure(String quarantineId, RuntimeException error) {}
}
