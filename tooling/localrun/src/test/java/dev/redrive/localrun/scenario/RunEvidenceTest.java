package dev.redrive.localrun.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.testing.Records;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunEvidenceTest {

    @TempDir
    Path dir;

    @Test
    void deadLettersAreCountedByConsumerStateClassAndTypeWithTheFirstOnesReason() {
        List<QuarantineRecord> ledger =
                List.of(Records.quarantined("a", "q", "{}"), Records.quarantined("b", "q", "{}"));

        assertThat(RunEvidence.deadLetters(ledger))
                .containsExactly("2 x email QUARANTINED TRANSIENT Timeout: slow (receives 3, key email#k-a)");
        assertThat(RunEvidence.deadLetters(List.of())).isEmpty();
    }

    @Test
    void eachFunctionLogGivesItsLastLinesThatReportAFailureAndTheRunsOwnLogIsLeftOut() throws Exception {
        List<String> email = new ArrayList<>(List.of(
                "Picked up JAVA_TOOL_OPTIONS: -XX:TieredStopAtLevel=1",
                "20:34:30.656 INFO  [io.quarkus] redrive-functions 0.1.0 on JVM started in 0.653s.",
                "{\"_aws\":{\"Timestamp\":1}}"));
        for (int i = 1; i <= RunEvidence.LOG_LINES + 2; i++) {
            email.add("20:35:1" + i + ".0 INFO  [de.re.consumer] message retries consumer=confirmation-email n=" + i);
        }
        email.add("20:36:00.0 INFO  [de.re.consumer] message dead-lettered consumer=confirmation-email class=PERMANENT"
                + " errorType=EmailConflict");
        email.add("20:36:00.1 INFO  [de.re.consumer] confirmation-email: batch of 1 -> {Applied=1}; 0 reported failed");
        Files.write(dir.resolve("confirmation-email-1.log"), email);
        Files.write(dir.resolve("revenue-analytics-1.log"), List.of("20:34:30.0 INFO  [io.quarkus] started"));
        Files.write(dir.resolve("progress.log"), List.of("20:34:30.0 WARN  the run's own log"));

        List<String> lines = RunEvidence.logs(dir);

        assertThat(lines)
                .first()
                .isEqualTo("confirmation-email-1.log (" + (RunEvidence.LOG_LINES + 3) + " such lines):");
        assertThat(lines).hasSize(1 + RunEvidence.LOG_LINES);
        assertThat(lines.get(lines.size() - 1))
                .contains("message dead-lettered")
                .contains("EmailConflict");
        assertThat(lines.get(1)).endsWith("n=" + 4);
        assertThat(String.join("\n", lines)).doesNotContain("revenue-analytics").doesNotContain("the run's own log");
    }

    @Test
    void eachFunctionSaysHowOftenItTimedOutAndHowSlowItsFirstInvocationsWere() {
        Map<String, Long> email = new LinkedHashMap<>();
        email.put("invocations", 4L);
        email.put("errors", 0L);
        email.put("timeouts", 4L);
        email.put("sandboxProcesses", 6L);
        email.put("medianFirstInvocationMs", 6000L);
        email.put("slowestFirstInvocationMs", 6010L);

        assertThat(RunEvidence.functions(Map.of("confirmation-email", email)))
                .containsExactly("confirmation-email: 4 invocations, 0 errors, 4 timeouts, 6 sandbox processes, first "
                        + "invocation median 6000 ms, slowest 6010 ms");
    }

    @Test
    void aMissingLogFolderGivesNoLines() throws Exception {
        assertThat(RunEvidence.logs(dir.resolve("gone"))).isEmpty();
    }
}
