package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The launcher's transaction undo log and moto's own deep-copy rollback, given the same seeded random transactions
 * in one Python process, answer the same and leave the same state after each one
 * ({@code src/test/python/moto_undo_log_differential.py}; run it by hand with more transactions or another seed).
 */
class MotoUndoLogDifferentialTest {

    private static final Path SCRIPT = Path.of("src", "test", "python", "moto_undo_log_differential.py");

    @Test
    void theUndoLogAndMotosDeepCopyAgreeOnSeededRandomTransactions() throws Exception {
        assumeThat(EndpointOverrides.fromEnvironment().dynamoDb())
                .as("DynamoDB comes from AWS_ENDPOINT_URL, not from moto")
                .isEmpty();
        String python = MotoPrerequisite.python();
        MotoPrerequisite.check(python);
        Path output = Files.createTempFile("redrive-moto-differential-", ".txt");
        try {
            Process run = new ProcessBuilder(
                            List.of(python, SCRIPT.toString(), "--transactions", "300", "--seed", "13"))
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            assertThat(run.waitFor(5, TimeUnit.MINUTES))
                    .as("the differential run finished")
                    .isTrue();
            String said = Files.readString(output, StandardCharsets.UTF_8);
            assumeThat(run.exitValue())
                    .as("the launcher installs the undo log on this moto (else it keeps moto's rollback): %s", said)
                    .isNotEqualTo(2);
            assertThat(run.exitValue()).as(said).isZero();
            assertThat(said).contains("agree on 300 seeded transactions");
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
