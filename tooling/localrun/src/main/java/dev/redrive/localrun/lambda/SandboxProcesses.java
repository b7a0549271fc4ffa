package dev.redrive.localrun.lambda;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A sandbox's processes: its bootstrap and everything the bootstrap started (a shell's commands, a sidecar). Lambda
 * freezes and ends an execution environment whole, so the local service signals the whole tree, never only the
 * bootstrap's pid: a child left running would go on writing into the sandbox's folder after it was closed, and would
 * run while the sandbox is frozen.
 *
 * <p>Where there is {@code setsid(1)} (Linux), each sandbox leads a process group of its own, and ending it signals
 * the group: that reaches every process the sandbox started, whenever it started it, even one handed to init because
 * its parent exited first (a child started while the bootstrap handled its SIGTERM). Besides, and where there is no
 * {@code setsid}, a tree is taken by stopping it from the top down (SIGSTOP): a stopped process cannot start another,
 * so the children listed after their parent stopped are all of them; ending it is then SIGKILL to each.
 */
final class SandboxProcesses {

    /** {@code setsid(1)}, which starts a command as the leader of a new session and process group; none on macOS. */
    private static final Optional<String> SETSID = Stream.of("/usr/bin/setsid", "/bin/setsid")
            .filter(p -> Files.isExecutable(Path.of(p)))
            .findFirst();

    /** Whether sandboxes here lead process groups of their own (their group's id is their pid). */
    static final boolean GROUPS = SETSID.isPresent();

    private SandboxProcesses() {}

    /**
     * {@code command} started as the leader of a process group of its own, where {@code setsid} is there ({@code
     * setsid} execs the command in place: the pid is the command's).
     */
    static List<String> inItsOwnGroup(List<String> command) {
        if (SETSID.isEmpty()) {
            return command;
        }
        List<String> wrapped = new ArrayList<>();
        wrapped.add(SETSID.get());
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Stops {@code root} and every process under it (SIGSTOP), parents before their children. Returns the processes
     * stopped, {@code root} first; empty when {@code root} could not be stopped (it has ended).
     */
    static List<ProcessHandle> stop(ProcessHandle root) {
        List<ProcessHandle> stopped = new ArrayList<>();
        if (!root.isAlive() || !signal("STOP", List.of(root))) {
            return stopped;
        }
        awaitStopped(root, Duration.ofSeconds(2));
        stopped.add(root);
        List<ProcessHandle> level = root.children().toList();
        while (!level.isEmpty()) {
            signal("STOP", level); // a child that ended meanwhile makes kill(1) exit 1; the others are stopped
            List<ProcessHandle> next = new ArrayList<>();
            for (ProcessHandle p : level) {
                if (p.isAlive()) {
                    awaitStopped(p, Duration.ofSeconds(2));
                    stopped.add(p);
                    next.addAll(p.children().toList());
                }
            }
            level = next;
        }
        return stopped;
    }

    /** Lets {@code processes} run again (SIGCONT), children first so that no parent waits on a stopped child. */
    static void resume(List<ProcessHandle> processes) {
        List<ProcessHandle> alive = new ArrayList<>(processes);
        java.util.Collections.reverse(alive);
        alive.removeIf(p -> !p.isAlive());
        if (!alive.isEmpty()) {
            signal("CONT", alive);
        }
    }

    /**
     * Ends {@code root} and every process under it at once (SIGKILL), as Lambda ends an environment, and waits up to
     * five seconds for {@code root} to be gone.
     */
    static void kill(Process root) {
        if (GROUPS) {
            signalGroup("KILL", root.pid());
        }
        List<ProcessHandle> tree = stop(root.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
        root.destroyForcibly(); // when it could not be stopped (already ending), still make sure
        try {
            root.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Ends the sandbox gently: SIGTERM to {@code root}, up to {@code grace} for it to exit, then SIGKILL to whatever
     * of the tree is left (the processes it started included, though they were handed to init when it exited).
     */
    static void terminate(Process root, Duration grace) {
        List<ProcessHandle> started = root.descendants().toList();
        root.destroy();
        try {
            if (!root.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(root);
            }
        } catch (InterruptedException e) {
            kill(root);
            Thread.currentThread().interrupt();
        }
        if (GROUPS) {
            signalGroup("KILL", root.pid()); // what it started, even after the list above, and handed to init
        }
        for (ProcessHandle p : started) {
            if (p.isAlive()) {
                stop(p).forEach(ProcessHandle::destroyForcibly);
            }
        }
    }

    /**
     * Sends the named signal to every process of the group {@code groupId} (a sandbox's pid). A group whose processes
     * have all ended is no longer there, and nothing is sent.
     */
    static void signalGroup(String signal, long groupId) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + groupId)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            kill.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not run kill(1) to end the sandbox's processes", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until the kernel shows {@code process} stopped ({@code T} in {@code /proc/<pid>/stat}): {@code kill -STOP}
     * returns once the signal is sent, and the target stops a moment later. Where there is no {@code /proc}, returns.
     */
    static void awaitStopped(ProcessHandle process, Duration atMost) {
        Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        long deadline = System.nanoTime() + atMost.toNanos();
        try {
            while (System.nanoTime() < deadline && process.isAlive()) {
                String s = Files.readString(stat);
                char state = s.charAt(s.lastIndexOf(')') + 2);
                if (state == 'T' || state == 't' || state == 'Z') {
                    return;
                }
                Thread.sleep(1);
            }
        } catch (IOException | RuntimeException e) {
            // no /proc, or the process is gone: nothing to wait for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends the named signal to every one of {@code processes} with one kill(1); false when it failed for any. */
    static boolean signal(String signal, List<ProcessHandle> processes) {
        List<String> command = new ArrayList<>();
        command.add("kill");
        command.add("-" + signal);
        processes.forEach(p -> command.add(Long.toString(p.pid())));
        try {
            Process kill = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
