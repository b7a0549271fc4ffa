package dev.redrive.testing.localaws;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@link LocalAws#besideThisThread}: the first log calls of a JVM, made from two threads at once (moto's HTTP client
 * through java.util.logging on one, ElasticMQ's Pekko through SLF4J on the other), do not deadlock where JBoss
 * LogManager manages java.util.logging, as on this module's test class path and a Quarkus test's.
 *
 * <p>Each child JVM races the two at a barrier, exactly once (class initialization happens once per JVM). Without the
 * initialization {@code besideThisThread} does first, 4 of 10 such children hung on this machine; {@value #CHILDREN}
 * children all pass by chance then with a probability under 2 %.
 */
class LoggingBesideAnotherThreadTest {

    static final int CHILDREN = 8;

    @Test
    void theFirstLogCallsOfTwoThreadsAtOnceDoNotDeadlock() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> children = new ArrayList<>();
        for (int i = 0; i < CHILDREN; i++) {
            children.add(new ProcessBuilder(
                            java,
                            "-XX:TieredStopAtLevel=1",
                            "-cp",
                            System.getProperty("java.class.path"),
                            Race.class.getName())
                    .redirectErrorStream(true)
                    .start());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<String> outcomes = new ArrayList<>();
        for (Process child : children) {
            outcomes.add(outcome(child, deadline));
        }
        assertThat(outcomes)
                .as("each child JVM's end (those still running 60 s after the start, deadlocked, are killed)")
                .containsOnly("exit 0: both initialized");
    }

    private static String outcome(Process child, long deadline) throws IOException, InterruptedException {
        if (!child.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            child.destroyForcibly().waitFor();
            return "hung";
        }
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return "exit " + child.exitValue() + ": "
                + out.lines().reduce((a, b) -> b).orElse("");
    }

    /** The child: both first log calls at a barrier, one on a thread of {@link LocalAws#besideThisThread}. */
    static final class Race {
        public static void main(String[] args) throws Exception {
            CyclicBarrier together = new CyclicBarrier(2);
            var http = LocalAws.besideThisThread("race", () -> {
                await(together);
                return HttpClient.newBuilder().build();
            });
            await(together);
            LoggerFactory.getLogger("race").isWarnEnabled();
            http.join();
            System.out.println("both initialized");
        }

        private static void await(CyclicBarrier barrier) {
            try {
                barrier.await();
            } catch (InterruptedException | BrokenBarrierException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
