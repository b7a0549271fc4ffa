package dev.redrive.localrun.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the machine's CPU time goes during a measurement: the whole machine (from {@code /proc/stat}, other work on it
 * included), the moto process, this JVM (ElasticMQ embedded, the event-source pollers, the counting proxies, the
 * producer) and the sandboxes, in milliseconds of CPU.
 */
final class CpuMeter {

    /** One reading; {@code sandboxMillis} by process id. */
    record Reading(
            long atNanos, long machineBusyMillis, long motoMillis, long runnerMillis, Map<Long, Long> sandboxMillis) {

        /**
         * Cores each part used between {@code earlier} and this reading. A sandbox started in between counts from its
         * start; one that ended in between is not counted for its last stretch (its process can no longer be read).
         */
        Use since(Reading earlier) {
            double seconds = (atNanos - earlier.atNanos) / 1e9;
            long sandboxes = 0;
            for (Map.Entry<Long, Long> e : sandboxMillis.entrySet()) {
                sandboxes += e.getValue() - earlier.sandboxMillis.getOrDefault(e.getKey(), 0L);
            }
            return new Use(
                    (machineBusyMillis - earlier.machineBusyMillis) / 1000.0 / seconds,
                    (motoMillis - earlier.motoMillis) / 1000.0 / seconds,
                    (runnerMillis - earlier.runnerMillis) / 1000.0 / seconds,
                    sandboxes / 1000.0 / seconds);
        }
    }

    /** Cores used (CPU seconds a second): by the whole machine, moto, this JVM, the sandboxes. */
    record Use(double machine, double moto, double runner, double sandboxes) {}

    private static final long TICKS_PER_SECOND = 100;

    private final Optional<Long> motoPid;

    CpuMeter(Optional<Long> motoPid) {
        this.motoPid = motoPid;
    }

    /** Reads now; {@code sandboxPids} are the sandboxes' processes (their CPU since each started). */
    Reading read(List<Long> sandboxPids) {
        Map<Long, Long> sandboxes = new HashMap<>();
        for (long pid : sandboxPids) {
            long millis = ColdStart.cpuMillis(pid);
            if (pid > 0 && millis >= 0) {
                sandboxes.put(pid, millis);
            }
        }
        return new Reading(
                System.nanoTime(),
                machineBusyMillis(),
                motoPid.map(ColdStart::cpuMillis).orElse(0L),
                runnerMillis(),
                sandboxes);
    }

    private static long runnerMillis() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() / 1_000_000 : 0;
    }

    /** The machine's busy time: every CPU's time but idle and iowait, from the first line of {@code /proc/stat}. */
    static long machineBusyMillis() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            return (total - idle) * 1000 / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
