package dev.redrive.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference in {@code docs/reference/quarkus-configuration.md} is the one the build generates from
 * {@link RedriveConfig}'s doc comments (the Quarkus extension processor's model, rendered by
 * quarkus-config-doc-maven-plugin in {@code process-classes}): a property added, renamed or re-documented without the
 * reference regenerated fails here, with the command that regenerates it.
 */
class ConfigurationReferenceTest {

    static final Path GENERATED = Path.of("target/quarkus-generated-doc/config/redrive-quarkus.md");
    static final Path COMMITTED = Path.of("../../../docs/reference/quarkus-configuration.md");

    /** What the committed file starts with, above the generated table. */
    static final String HEADER = """
            # Configuration reference: `redrive-quarkus`

            Every property of a Quarkus consumer function under `redrive.`, with its environment variable, type and
            default, generated from `RedriveConfig`'s doc comments. Do not edit: regenerate it with
            `bin/regenerate-configuration-reference`. A plain-Java function (`redrive-lambda`) reads the same
            environment variables.

            """;

    @Test
    void theCommittedReferenceIsTheGeneratedOne() throws IOException {
        assertThat(GENERATED)
                .as("the generated reference (process-classes runs before the tests)")
                .exists();
        String expected = HEADER + Files.readString(GENERATED, StandardCharsets.UTF_8);

        assertThat(Files.readString(COMMITTED, StandardCharsets.UTF_8))
                .as("%s is stale: run bin/regenerate-configuration-reference", COMMITTED.normalize())
                .isEqualTo(expected);
    }

    @Test
    void everyPropertyOfTheMappingHasItsEnvironmentVariableAndADescription() throws IOException {
        String generated = Files.readString(GENERATED, StandardCharsets.UTF_8);

        assertThat(generated).contains("`redrive.claims.table`", "Environment variable: `REDRIVE_CLAIMS_TABLE`");
        long properties = generated
                .lines()
                .filter(l -> l.matches("^`redrive\\.[a-z0-9.\\-\"*]+`$"))
                .count();
        long variables = generated
                .lines()
                .filter(l -> l.startsWith("Environment variable: `REDRIVE_"))
                .count();
        assertThat(properties).as("properties in the reference").isGreaterThan(20);
        assertThat(variables).as("one environment variable per property").isEqualTo(properties);
    }
}
