package dev.redrive.localrun.bench;

import dev.redrive.localrun.lambda.LambdaRuntimeApi;
import dev.redrive.localrun.lambda.ManagedJavaRuntime;
import dev.redrive.localrun.lambda.SandboxSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One cold start of a function's sandbox, measured: a new process of the artifact started as the local run starts
 * one ({@link SandboxSpec#process}: the {@code java21} runtime's flags, the function's environment, a Runtime API of its
 * own), then its first event. Times are from the process's start: to its first poll of the Runtime API (the init), and
 * to the answer to its first event; the first event alone; and the CPU time the process used up to that answer.
 *
 * @param initMillis       process start to first poll
 * @param firstEventMillis the first event, from its delivery to its answer
 * @param totalMillis      process start to the answer to the first event
 * @param cpuMillis        the process's CPU time (user + system) up to that answer
 * @param peakRssKb        the process's peak resident set ({@code VmHWM}) at that answer, in KiB
 * @param restored         whether the sandbox ran a SnapStart init (its checkpoint hooks ran before its first poll)
 * @param problem          why the start did not count (it failed, or its event was not handled); empty if it counted
 */
record ColdStart(
        long initMillis,
        long firstEventMillis,
        long totalMillis,
        long cpuMillis,
        long peakRssKb,
        boolean restored,
        Optional<String> problem) {

    /** Clock ticks a second of {@code /proc/<pid>/stat}'s CPU times (USER_HZ, 100 on Linux). */
    private static final long TICKS_PER_SECOND = 100;

    boolean counted() {
        return problem.isEmpty();
    }

    /** Starts a sandbox of {@code spec} under {@code runtime} in a new folder of {@code dir}, and delivers {@code event}. */
    static ColdStart measure(
            SandboxSpec spec, ManagedJavaRuntime runtime, Path dir, FirstEvent.Delivery event, Duration timeout)
            throws Exception {
        Path home = Files.createTempDirectory(dir, spec.functionName() + "-");
        Path tmp = Files.createDirectories(home.resolve("tmp"));
        Path log = home.resolve("sandbox.log");
        try (LambdaRuntimeApi api = new LambdaRuntimeApi(spec.functionArn())) {
            ProcessBuilder pb = spec.process(runtime, tmp, api.address(), List.of(), home, log);
            long t0 = System.nanoTime();
            Process process = pb.start();
            try {
                CompletableFuture.anyOf(api.ready(), process.onExit()).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (!api.ready().isDone() || api.ready().isCompletedExceptionally()) {
                    return failed("did not reach its first poll; see " + log);
                }
                long ready = System.nanoTime();
                Optional<String> problem = event.deliver(
                        payload -> api.invoke(payload, timeout).get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS));
                long answered = System.nanoTime();
                long cpu = cpuMillis(process.pid());
                long rss = peakRssKb(process.pid());
                return new ColdStart(
                        millis(ready - t0),
                        millis(answered - ready),
                        millis(answered - t0),
                        cpu,
                        rss,
                        api.restoreAsked(),
                        problem.map(p -> p + "; see " + log));
            } finally {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static ColdStart failed(String problem) {
        return new ColdStart(-1, -1, -1, -1, -1, false, Optional.of(problem));
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    /** User + system CPU time of a live process, from {@code /proc/<pid>/stat} (fields 14 and 15), in milliseconds. */
    static long cpuMillis(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name (field 2) may hold spaces: count fields from the ')' that ends it
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * 1000 / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The peak resident set of a live process, {@code VmHWM} of {@code /proc/<pid>/status}, in KiB; -1 if unread. */
    static long peakRssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(
                            line.substring("VmHWM:".length()).trim().split("\\s+")[0]);
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
