package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.redrive.testing.localaws.EndpointOverrides;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The launcher's serving changes (DynamoDB answers serialized through compiled shapes, a Query that reads only the
 * items it can keep, update expressions parsed once) answer every request of a seeded corpus as moto's own code does,
 * byte for byte, leave the same tables, indexes and streams behind, and their compare modes find no difference on the
 * same state ({@code src/test/python/moto_serving_differential.py}: three launchers side by side; run it by hand with
 * more steps or another seed).
 */
class MotoServingDifferentialTest {

    private static final int STEPS = 500;

    @Test
    void theLaunchersServingChangesAnswerSeededRequestsAsMotoDoes() throws Exception {
        assumeThat(EndpointOverrides.fromEnvironment().dynamoDb())
                .as("DynamoDB comes from AWS_ENDPOINT_URL, not from moto")
                .isEmpty();
        PythonScript.Run run = PythonScript.run(
                "moto_serving_differential.py",
                Duration.ofMinutes(10),
                "--steps",
                String.valueOf(STEPS),
                "--seed",
                "13");
        assumeThat(run.exitValue())
                .as(
                        "the launcher installs its serving changes on this moto (else it keeps moto's code): %s",
                        run.output())
                .isNotEqualTo(2);
        assertThat(run.exitValue()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("agree on " + STEPS + " seeded steps")
                .containsPattern("final state alike on all three: [1-9]\\d* items in tables and indexes, [1-9]\\d* "
                        + "stream records")
                .containsPattern("REDRIVE_MOTO_COMPARED serializer answers=[1-9]\\d* differing=0 ")
                .containsPattern("REDRIVE_MOTO_COMPARED query compared=[1-9]\\d* differing=0")
                .containsPattern("REDRIVE_MOTO_COMPARED expressions compared=[1-9]\\d* differing=0")
                .doesNotContain("REDRIVE_MOTO_WARNING");
    }
}
