package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ProgressTest {

    @Test
    void aWaitThatRunsOutOfTimePrintsWhereEveryThreadStood() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(printed, true, StandardCharsets.UTF_8));
        CountDownLatch never = new CountDownLatch(1);
        Thread stuck = new Thread(
                () -> {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "stuck-producer");
        stuck.setDaemon(true);
        stuck.start();
        try {
            assertThatThrownBy(() ->
                            progress.await("the producers to finish", Duration.ofMillis(200), () -> "s", () -> false))
                    .isInstanceOf(Progress.TimedOut.class)
                    .hasMessageContaining("the producers to finish");
        } finally {
            never.countDown();
        }
        String out = printed.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("timed out waiting for the producers to finish; this process's threads:");
        assertThat(out).contains("\"stuck-producer\" WAITING").contains("java.util.concurrent.CountDownLatch.await(");
    }

    @Test
    void aWaitThatRunsOutOfTimeCarriesTheSystemsEvidenceInItsMessageAndPrintsIt() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertThatThrownBy(() -> progress.await(
                        "the orders", Duration.ofMillis(100), () -> "s", () -> false, () -> "2 x email PERMANENT Bug"))
                .isInstanceOf(Progress.TimedOut.class)
                .hasMessageContaining("waiting for the orders")
                .hasMessageEndingWith("; 2 x email PERMANENT Bug");
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("2 x email PERMANENT Bug\n");
    }

    @Test
    void aWaitThatEndsInTimeAsksForNoEvidence() throws Exception {
        Progress progress = new Progress(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        progress.await("nothing", Duration.ofSeconds(5), () -> "s", () -> true, () -> {
            throw new AssertionError("evidence read although the wait ended in time");
        });
    }

    @Test
    void aWaitThatEndsInTimePrintsNoThreads() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(printed, true, StandardCharsets.UTF_8));
        progress.await("nothing", Duration.ofSeconds(5), () -> "s", () -> true);
        assertThat(printed.toString(StandardCharsets.UTF_8)).doesNotContain("threads:");
    }
}
