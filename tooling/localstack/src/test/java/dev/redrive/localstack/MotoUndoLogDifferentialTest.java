package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.redrive.testing.localaws.EndpointOverrides;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The launcher's transaction undo log and moto's own deep-copy rollback, given the same seeded random transactions
 * in one Python process, answer the same and leave the same state after each one
 * ({@code src/test/python/moto_undo_log_differential.py}; run it by hand with more transactions or another seed).
 */
class MotoUndoLogDifferentialTest {

    @Test
    void theUndoLogAndMotosDeepCopyAgreeOnSeededRandomTransactions() throws Exception {
        assumeThat(EndpointOverrides.fromEnvironment().dynamoDb())
                .as("DynamoDB comes from AWS_ENDPOINT_URL, not from moto")
                .isEmpty();
        PythonScript.Run run = PythonScript.run(
                "moto_undo_log_differential.py", Duration.ofMinutes(5), "--transactions", "300", "--seed", "13");
        assumeThat(run.exitValue())
                .as("the launcher installs the undo log on this moto (else it keeps moto's rollback): %s", run.output())
                .isNotEqualTo(2);
        assertThat(run.exitValue()).as(run.output()).isZero();
        assertThat(run.output()).contains("agree on 300 seeded transactions");
    }
}
