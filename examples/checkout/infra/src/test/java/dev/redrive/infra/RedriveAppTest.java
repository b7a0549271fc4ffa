package dev.redrive.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;

class RedriveAppTest {

    @Test
    void contextChoosesPrefixRuntimeArchitectureScheduleRetentionAndArtifact(@TempDir Path dir) throws IOException {
        Path zip = zip(dir.resolve("function.zip"), "bootstrap", elf(0xB7)); // EM_AARCH64
        Map<String, Object> context = Map.of(
                "prefix",
                "shop",
                "runtime",
                "native",
                "architecture",
                "arm64",
                "sweepRate",
                "10 minutes",
                "sweeperRetention",
                "P3D",
                "functionsAsset",
                zip.toString());
        RedriveStack stack = Synth.stack(context);
        TemplateView t = Synth.template(context);

        assertThat(stack.artifact().isPlaceholder()).isFalse();
        assertThat(t.queue("shop-confirmation-email")).isNotBlank();
        assertThat(t.resources("AWS::KMS::Alias").values())
                .singleElement()
                .satisfies(a ->
                        assertThat(TemplateView.map(a, "Properties")).containsEntry("AliasName", "alias/shop-data"));
        assertThat(t.functionIds()).hasSize(7).allSatisfy(id -> {
            assertThat(t.properties(id))
                    .containsEntry("Runtime", "provided.al2023")
                    .containsEntry("Handler", "not.used.in.provided.runtime")
                    .containsEntry("Architectures", List.of("arm64"))
                    .containsEntry("MemorySize", 256);
            assertThat(t.environment(id)).containsEntry("DISABLE_SIGNAL_HANDLERS", "true");
        });
        assertThat(t.environment(t.function("dlq-sweeper"))).containsEntry("REDRIVE_SWEEPER_RETENTION", "P3D");
        t.template()
                .hasResourceProperties("AWS::Scheduler::Schedule", Map.of("ScheduleExpression", "rate(10 minutes)"));
        Annotations.fromStack(stack).hasNoWarning("*", Match.stringLikeRegexp(".*placeholder.*"));
    }

    @Test
    void contextTunesTheConsumersTimeoutReceivesAndBackoffAndTheVisibilityFollows() {
        TemplateView t = Synth.template(Map.of(
                "prefix",
                "demo",
                "consumerTimeout",
                "PT5S",
                "maxReceiveCount",
                "3",
                "allowShortRetries",
                "true",
                "backoffBase",
                "PT1S",
                "backoffMaxDelay",
                "PT4S"));

        String email = t.function("confirmation-email");
        assertThat(t.properties(email)).containsEntry("Timeout", 5);
        assertThat(t.environment(email))
                .containsEntry("REDRIVE_BACKOFF_BASE", "PT1S")
                .containsEntry("REDRIVE_BACKOFF_MAX_DELAY", "PT4S");
        Map<String, Object> queue = t.properties(t.queue("demo-confirmation-email"));
        assertThat(queue).containsEntry("VisibilityTimeout", 30);
        assertThat(String.valueOf(queue.get("RedrivePolicy"))).contains("maxReceiveCount=3");
        assertThat(t.properties(t.function("dlq-sweeper"))).containsEntry("Timeout", 300);
    }

    @Test
    void withoutAnArtifactTheStackSynthesizesWithThePlaceholderAndAWarning() {
        RedriveStack stack = Synth.stack(Map.of("prefix", "nozip"));

        assertThat(stack.artifact().isPlaceholder()).isTrue();
        assertThat(stack.artifact().path().resolve("bootstrap")).exists();
        Annotations.fromStack(stack)
                .hasWarning(
                        "/" + RedriveStack.NAME,
                        Match.stringLikeRegexp(".*-c functionsAsset not given.*placeholder.*"));
    }

    @Test
    void aSetButMissingArtifactFailsTheSynthInsteadOfDeployingThePlaceholder() {
        assertThatThrownBy(() -> Synth.stack(Map.of("functionsAsset", "does/not/exist.zip", "prefix", "nozip")))
                .hasMessageContaining("functionsAsset does/not/exist.zip does not exist")
                .hasMessageContaining("./mvnw -B -ntp package -pl examples/checkout/functions -am");
    }

    @Test
    void theSynthRefusesAJvmZipForTheNativeRuntime(@TempDir Path dir) throws IOException {
        Path jvmZip = zip(dir.resolve("function.zip"), "lib/dev.redrive.redrive-core.jar", new byte[] {'P', 'K'});

        assertThatThrownBy(() -> Synth.stack(Map.of("functionsAsset", jvmZip.toString(), "runtime", "native")))
                .hasMessageContaining("is a JVM artifact")
                .hasMessageContaining("-c runtime=jvm");
    }

    @Test
    void theSynthRefusesAnX8664BootstrapForArm64(@TempDir Path dir) throws IOException {
        Path nativeZip = zip(dir.resolve("function.zip"), "bootstrap", elf(0x3E)); // EM_X86_64

        assertThatThrownBy(() -> Synth.stack(
                        Map.of("functionsAsset", nativeZip.toString(), "runtime", "native", "architecture", "arm64")))
                .hasMessageContaining("bootstrap is an x86_64 executable")
                .hasMessageContaining("-c architecture=arm64");
    }

    /** The start of a 64-bit little-endian ELF executable for {@code machine} (its e_machine). */
    private static byte[] elf(int machine) {
        byte[] elf = new byte[64];
        elf[0] = 0x7F;
        elf[1] = 'E';
        elf[2] = 'L';
        elf[3] = 'F';
        elf[4] = 2;
        elf[5] = 1;
        elf[18] = (byte) machine;
        return elf;
    }

    private static Path zip(Path zip, String entry, byte[] content) throws IOException {
        try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new java.util.zip.ZipEntry(entry));
            out.write(content);
            out.closeEntry();
        }
        return zip;
    }

    @Test
    void aRetryWindowShorterThanAQuarterHourIsRefusedUnlessTheStackOptsOutForADemo() {
        assertThatThrownBy(() -> Synth.stack(Map.of("maxReceiveCount", "5")))
                .hasMessageContaining("maxReceiveCount 5")
                .hasMessageContaining("dead-letters")
                .hasMessageContaining("-c allowShortRetries=true");
        assertThatThrownBy(() ->
                        Synth.stack(Map.of("maxReceiveCount", "4", "backoffBase", "PT10M", "backoffMaxDelay", "PT12H")))
                .hasMessageContaining("maxReceiveCount 4 is below 5");

        RedriveStack demo = Synth.stack(Map.of(
                "maxReceiveCount", "4", "backoffBase", "PT1S", "backoffMaxDelay", "PT4S", "allowShortRetries", "true"));
        Annotations warnings = Annotations.fromStack(demo); // one synth for both
        warnings.hasWarning("/" + RedriveStack.NAME, Match.stringLikeRegexp(".*maxReceiveCount 4 is below 5.*"));
        warnings.hasWarning("/" + RedriveStack.NAME, Match.stringLikeRegexp(".*dead-letters.*about PT5.5S.*"));
    }

    @Test
    void theMinimumRetryWindowIsASetting() {
        assertThat(Synth.stack(Map.of("maxReceiveCount", "5", "minimumRetryWindow", "PT30S"))
                        .artifact())
                .isNotNull();
        assertThatThrownBy(() -> Synth.stack(Map.of("minimumRetryWindow", "PT1H")))
                .hasMessageContaining("PT1H");
    }

    @Test
    void badContextValuesAreRejectedWithTheFlagToFix() {
        assertThatThrownBy(() -> Synth.stack(Map.of("runtime", "python"))).hasMessageContaining("-c runtime=jvm");
        assertThatThrownBy(() -> Synth.stack(Map.of("prefix", "Bad_Prefix")))
                .hasMessageContaining("prefix 'Bad_Prefix'");
        assertThatThrownBy(() -> Synth.stack(Map.of("sweepRate", "often"))).hasMessageContaining("-c sweepRate=");
        assertThatThrownBy(() -> Synth.stack(Map.of("archiveExpiryDays", "20")))
                .hasMessageContaining("archiveExpiryDays");
    }
}
