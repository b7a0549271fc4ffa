package dev.redrive.localrun.chaos;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The faults the chaos run injects, each from outside the functions' code, each at a rate set by a flag, each counted
 * at the step where it struck.
 */
public enum FaultKind {
    /** SIGKILL of a sandbox at a named point: a consumer's {@link Step} or a producer's {@link ProducerCrashPoint}. */
    SANDBOX_KILL("kill", "sandbox SIGKILL"),
    /**
     * SIGSTOP past the lease, then SIGCONT: the sandbox's claim answer is held back until its invocation has ended, the
     * sandbox is frozen once it has answered (as Lambda freezes an environment), and thawed after the claim's lease has
     * run out. A worker thread that outlived the handler then wakes up stale. Since the handler no longer returns while
     * a record runs, the sandbox does not answer; it is replaced at its function timeout, which ends the hold.
     */
    SANDBOX_PAUSE("pause", "sandbox stopped (SIGSTOP) mid-effect past its lease, then SIGCONT"),
    DYNAMODB_THROTTLE("ddb-throttle", "DynamoDB ProvisionedThroughputExceededException"),
    DYNAMODB_INTERNAL_ERROR("ddb-500", "DynamoDB InternalServerError"),
    DYNAMODB_TRANSACTION_CONFLICT("ddb-conflict", "DynamoDB TransactionConflict"),
    S3_SLOW_DOWN("s3-slowdown", "S3 503 SlowDown"),
    SQS_INTERNAL_ERROR("sqs-500", "SQS 500 InternalError"),
    LATENCY("latency", "added latency"),
    CONNECTION_RESET("reset", "connection reset (the call reached AWS, its answer is lost)"),
    /** The sweeper's sandbox killed in the middle of a sweep, at one of its AWS calls. */
    SWEEPER_KILL("sweeper-kill", "sweeper SIGKILL mid-sweep"),
    /** Two sweeper invocations started at the same moment, on two sandboxes. */
    TWO_SWEEPERS("two-sweepers", "two sweepers at once"),
    /**
     * The payment provider holds an authorization's answer past the checkout's timeout, having authorized it or not
     * (drawn per call): the checkout answers 503 and the customer retries with its key, or gives up.
     */
    PROVIDER_HANG("provider-hang", "payment provider hangs past the checkout's timeout");

    private final String flag;
    private final String description;

    FaultKind(String flag, String description) {
        this.flag = flag;
        this.description = description;
    }

    /** The command-line name: {@code --kill 0.01}. */
    public String flag() {
        return flag;
    }

    public String description() {
        return description;
    }

    public static Optional<FaultKind> byFlag(String flag) {
        String f = flag.toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(k -> k.flag.equals(f)).findFirst();
    }
}
