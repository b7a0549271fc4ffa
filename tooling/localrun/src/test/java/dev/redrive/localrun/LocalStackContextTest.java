package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStackContextTest {

    @TempDir
    Path dir;

    private Path file(String text) throws Exception {
        Path file = dir.resolve("local-stack.properties");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void theChaosStackReplacesTheKeysItPrefixesAndTheDemoStackIgnoresThem() throws Exception {
        Path file = file("""
                # a comment
                chaos.consumerTimeout=PT10S
                consumerTimeout=PT6S
                maxReceiveCount=4
                chaos.extraKey=yes
                """);

        assertThat(LocalStackContext.of(file, false, Map.of()))
                .containsExactly(Map.entry("consumerTimeout", "PT6S"), Map.entry("maxReceiveCount", "4"));
        assertThat(LocalStackContext.of(file, true, Map.of()))
                .containsExactly(
                        Map.entry("consumerTimeout", "PT10S"),
                        Map.entry("extraKey", "yes"),
                        Map.entry("maxReceiveCount", "4"));
    }

    @Test
    void theEnvironmentOverridesTheChaosStacksConsumerTimeoutOnly() throws Exception {
        Path file = file("consumerTimeout=PT6S\nchaos.consumerTimeout=PT10S\n");
        Map<String, String> env = Map.of(LocalStackContext.CHAOS_TIMEOUT_VARIABLE, " PT20S ");

        assertThat(LocalStackContext.of(file, true, env)).containsEntry("consumerTimeout", "PT20S");
        assertThat(LocalStackContext.of(file, false, env)).containsEntry("consumerTimeout", "PT6S");
        assertThat(LocalStackContext.of(file, true, Map.of(LocalStackContext.CHAOS_TIMEOUT_VARIABLE, " ")))
                .containsEntry("consumerTimeout", "PT10S");
    }

    @Test
    void theBuildsIncidentRunTakesItsOwnConsumerTimeoutAndTheCompressedBreakerAndLeaveTheDemoStackAlone() {
        Path shipped = Path.of("local-stack.properties");

        Map<String, String> overrides = LocalStackContext.forTheBuildsIncidentRun();

        assertThat(overrides)
                .containsEntry("consumerTimeout", "PT20S")
                .containsAllEntriesOf(LocalStackContext.COMPRESSED_BREAKER)
                .hasSize(LocalStackContext.COMPRESSED_BREAKER.size() + 1);
        assertThat(java.time.Duration.parse(overrides.get("consumerTimeout")))
                .as("longer than the chaos stack's, whose sandboxes are killed on purpose")
                .isGreaterThan(java.time.Duration.parse(
                        LocalStackContext.of(shipped, true, Map.of()).get("consumerTimeout")));
        assertThat(LocalStackContext.of(shipped, false, Map.of()))
                .as("the demo stack itself is unchanged")
                .containsEntry("consumerTimeout", "PT6S");
    }

    @Test
    void theShippedFileGivesTheDemoAndChaosStacksTheirTimeouts() {
        Path shipped = Path.of("local-stack.properties");

        assertThat(LocalStackContext.of(shipped, false, Map.of()))
                .containsEntry("consumerTimeout", "PT6S")
                .containsEntry("runtime", "jvm")
                .doesNotContainKey("chaos.consumerTimeout");
        assertThat(LocalStackContext.of(shipped, true, Map.of())).containsEntry("consumerTimeout", "PT10S");
    }

    @Test
    void printsOneKeyValueLinePerKeyAndRefusesALineBreakInAValue() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LocalStackContext.print(
                LocalStackContext.of(file("b=2\na=x\\=y\n"), false, Map.of()),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("a=x=y" + System.lineSeparator() + "b=2" + System.lineSeparator());

        Map<String, String> broken = LocalStackContext.of(file("a=one\\ntwo\n"), false, Map.of());
        assertThatThrownBy(() -> LocalStackContext.print(broken, new PrintStream(new ByteArrayOutputStream())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key a has a line break");
    }

    @Test
    void aMissingFileSaysWhichFile() {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> LocalStackContext.of(missing, false, Map.of()))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(missing.toString());
    }
}
