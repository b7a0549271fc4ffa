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
import software.amazon.awscdk.assertions.Template;

class RedriveAppTest {

    @Test
    void contextChoosesPrefixRuntimeArchitectureScheduleRetentionAndArtifact(@TempDir Path dir) throws IOException {
        Path zip = Files.write(dir.resolve("function.zip"), new byte[] {'P', 'K', 5, 6, 0, 0, 0, 0});
        RedriveStack stack = Synth.stack(Map.of(
                "prefix",
                "shop",
                "runtime",
                "jvm",
                "architecture",
                "x86_64",
                "sweepRate",
                "10 minutes",
                "sweeperRetention",
                "P3D",
                "functionsAsset",
                zip.toString()));
        TemplateView t = new TemplateView(Template.fromStack(stack));

        assertThat(stack.artifact().isPlaceholder()).isFalse();
        assertThat(t.queue("shop-confirmation-email")).isNotBlank();
        assertThat(t.resources("AWS::KMS::Alias").values())
                .singleElement()
                .satisfies(a ->
                        assertThat(TemplateView.map(a, "Properties")).containsEntry("AliasName", "alias/shop-data"));
        assertThat(t.functionIds()).hasSize(3).allSatisfy(id -> {
            assertThat(t.properties(id))
                    .containsEntry("Runtime", "java21")
                    .containsEntry("Handler", "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest")
                    .containsEntry("Architectures", List.of("x86_64"));
            assertThat(t.environment(id)).doesNotContainKey("DISABLE_SIGNAL_HANDLERS");
        });
        assertThat(t.environment(t.function("dlq-sweeper"))).containsEntry("REDRIVE_SWEEPER_RETENTION", "P3D");
        t.template()
                .hasResourceProperties("AWS::Scheduler::Schedule", Map.of("ScheduleExpression", "rate(10 minutes)"));
        Annotations.fromStack(stack).hasNoWarning("*", Match.stringLikeRegexp(".*placeholder.*"));
    }

    @Test
    void contextTunesTheConsumersTimeoutReceivesAndBackoffAndTheVisibilityFollows() {
        TemplateView t = new TemplateView(Template.fromStack(Synth.stack(Map.of(
                "prefix",
                "demo",
                "consumerTimeout",
                "PT5S",
                "maxReceiveCount",
                "3",
                "backoffBase",
                "PT1S",
                "backoffMaxDelay",
                "PT4S"))));

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
    void aMissingArtifactFallsBackToThePlaceholderWithAWarning() {
        RedriveStack stack = Synth.stack(Map.of("functionsAsset", "does/not/exist.zip", "prefix", "nozip"));

        assertThat(stack.artifact().isPlaceholder()).isTrue();
        assertThat(stack.artifact().path().resolve("bootstrap")).exists();
        Annotations.fromStack(stack)
                .hasWarning("/" + RedriveStack.NAME, Match.stringLikeRegexp(".*does/not/exist.zip.*placeholder.*"));
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
