package dev.redrive.schema;

import static dev.redrive.schema.Fixtures.V1;
import static dev.redrive.schema.Fixtures.V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.replay.SchemaGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RoutesDocumentTest {

    @Test
    void aDocumentDeclaresRoutesWithAndWithoutContracts() {
        RoutesDocument doc = Fixtures.routes();

        assertThat(doc.consumers()).containsExactly("audit", "legacy", "welcome-email");
        DeclaredRoute email = doc.route("welcome-email").orElseThrow();
        assertThat(email.sourceQueue()).isEqualTo("signup");
        assertThat(email.breaker()).contains("mail-provider");
        assertThat(email.contract().orElseThrow().currentVersion("Signup")).isEqualTo(2);
        assertThat(doc.route("legacy").orElseThrow().contract()).isEmpty();
        assertThat(doc.readers(List.of())).containsOnlyKeys("welcome-email", "audit");
    }

    @Test
    void theBreakersAreTheDeclaredOnesEachOnce() {
        RoutesDocument doc = Fixtures.routes();
        List<DeclaredRoute> more = new ArrayList<>(doc.routes());
        DeclaredRoute email = doc.route("welcome-email").orElseThrow();
        more.add(new DeclaredRoute(
                "receipt-email", "orders", "orders-dlq", email.contract(), java.util.Optional.of("mail-provider")));
        more.add(new DeclaredRoute(
                "capture", "payments", "payments-dlq", email.contract(), java.util.Optional.of("card-processor")));

        assertThat(doc.breakers()).containsExactly("mail-provider");
        assertThat(new RoutesDocument(more).breakers()).containsExactly("card-processor", "mail-provider");
        assertThat(RoutesDocument.parseLegacy("[]").breakers()).isEmpty();
    }

    @Test
    void itIsWrittenAsItIsParsed() {
        RoutesDocument doc = Fixtures.routes();

        assertThat(RoutesDocument.parse(doc.toJson()).routes()).isEqualTo(doc.routes());
    }

    @Test
    void itLoadsFromS3AFileOrInlineJson(@TempDir Path dir) throws Exception {
        String json = Fixtures.routesJson();
        Path file = dir.resolve("routes.json");
        Files.writeString(file, json);
        List<String> asked = new ArrayList<>();
        RoutesStore s3 = (bucket, key) -> {
            asked.add(bucket + "|" + key);
            return json;
        };

        assertThat(RoutesDocument.load("s3://platform-bucket/routes/v1.json", s3)
                        .consumers())
                .containsExactly("audit", "legacy", "welcome-email");
        assertThat(asked).containsExactly("platform-bucket|routes/v1.json");
        assertThat(RoutesDocument.load(file.toString(), s3).routes()).hasSize(3);
        assertThat(RoutesDocument.load("  " + json, s3).routes()).hasSize(3);
        assertThatThrownBy(() -> RoutesDocument.load("s3://bucket-only", s3))
                .hasMessageContaining("is not s3://bucket/key");
        assertThatThrownBy(() -> RoutesDocument.load(dir.resolve("missing.json").toString(), s3))
                .hasMessageContaining("names the file");
    }

    @Test
    void theOldQueuesOnlyArrayIsReadAsRoutesWithoutAContract() {
        RoutesDocument doc = RoutesDocument.load(
                "[{\"consumer\":\"a\",\"sourceQueueUrl\":\"http://q/a\",\"deadLetterQueue\":\"a-dlq\"}]", (b, k) -> {
                    throw new AssertionError("not S3");
                });

        assertThat(doc.route("a").orElseThrow().sourceQueue()).isEqualTo("http://q/a");
        assertThat(doc.route("a").orElseThrow().contract()).isEmpty();
    }

    @Test
    void problemsNameTheRouteAndTheField() {
        String ok = Fixtures.routesJson();

        assertThatThrownBy(() -> RoutesDocument.parse(ok.replace("\"version\": 1,", "\"version\": 2,")))
                .hasMessageContaining("\"version\" must be 1");
        assertThatThrownBy(() -> RoutesDocument.parse(ok.replace("{\"attribute\": \"eventId\"}", "\"eventId\"")))
                .hasMessage("routes[1] (consumer 'audit'): \"key\" must be {\"pointer\": \"/field\"} or "
                        + "{\"attribute\": \"name\"}");
        assertThatThrownBy(() -> RoutesDocument.parse(ok.replace("\"breaker\"", "\"breakr\"")))
                .hasMessageStartingWith("routes[0] (consumer 'welcome-email'): \"breakr\" is not a field of a route");
        assertThatThrownBy(() -> RoutesDocument.parse(ok.replace("\"AuditEntry\": {\"1\"", "\"AuditEntry\": {\"one\"")))
                .hasMessage("routes[1] (consumer 'audit'): \"schemas.AuditEntry.one\" is not a version (a positive "
                        + "integer)");
        assertThatThrownBy(() -> RoutesDocument.parse(ok.replace("\"op\": \"move\"", "\"op\": \"teleport\"")))
                .hasMessageStartingWith(
                        "routes[0] (consumer 'welcome-email'): \"upcasters.Signup.1\" is not a JSON " + "Patch");
        assertThatThrownBy(() -> RoutesDocument.parse(ok.replace("\"deadLetterQueue\": \"legacy-dlq\"", "\"x\": 1")))
                .hasMessageContaining("routes[2] (consumer 'legacy')");
        assertThatThrownBy(
                        () -> RoutesDocument.parse(ok.replace("\"consumer\": \"legacy\"", "\"consumer\": \"audit\"")))
                .hasMessage("routes[2] (consumer 'audit'): the consumer is declared twice");
        assertThatThrownBy(() -> RoutesDocument.parse(ok.replace("\"key\": {\"pointer\": \"/id\"},", "")))
                .hasMessageContaining("routes[0] (consumer 'welcome-email'): \"key\" is missing");
        assertThatThrownBy(() -> RoutesDocument.parse(ok.replace("\"version\": {\"pointer\": \"/v\"},", "")))
                .hasMessageContaining("routes[0] (consumer 'welcome-email'): ")
                .hasMessageContaining("no version pointer");
        assertThatThrownBy(() -> RoutesDocument.parse("{\"version\": 1, \"routes\": ["))
                .hasMessageStartingWith("the routes document is not JSON");
    }

    @Test
    void theSchemaGateUpcastsRefusesAnUndeclaredConsumerAndARouteWithoutAContract() {
        RoutesDocument doc = Fixtures.routes();
        SchemaGate gate = doc.schemaGate(doc.readers(List.of()));

        assertThat(gate.check("welcome-email", V2)).isEqualTo(new SchemaGate.Current());
        SchemaGate.Verdict upcast = gate.check("welcome-email", V1);
        assertThat(upcast).isInstanceOf(SchemaGate.Upcast.class);
        assertThat(((SchemaGate.Upcast) upcast).fromVersion()).isEqualTo(1);
        assertThat(gate.check("nobody", V2))
                .isEqualTo(new SchemaGate.Incompatible(
                        "no route declares the consumer 'nobody' (declared: audit, legacy, welcome-email)"));
        assertThat(gate.check("legacy", V2)).isEqualTo(new SchemaGate.Incompatible("route legacy declares no key"));
        assertThat(gate.check("welcome-email", "nope"))
                .isEqualTo(new SchemaGate.Incompatible("the payload is not JSON"));
        assertThat(gate.check("welcome-email", V2.replace("\"type\":\"Signup\"", "\"type\":\"x\"")))
                .isEqualTo(new SchemaGate.Incompatible("$.type is not Signup, the type welcome-email reads"));
        assertThat(gate.check("audit", "{\"what\":\"x\"}")).isEqualTo(new SchemaGate.Current());
        assertThat(gate.check("welcome-email", V1.replace(",\"email\":\"ada@example.com\"", "")))
                .isInstanceOf(SchemaGate.Incompatible.class);
    }

    @Test
    void routesWithoutAContractReadNoKey() {
        RoutesDocument doc = Fixtures.routes();

        assertThat(doc.keyReaders(doc.readers(List.of()))).containsOnlyKeys("welcome-email", "audit", "legacy");
        assertThatThrownBy(() -> doc.keyReaders(Map.of()).get("legacy").parse(Fixtures.message(V2)))
                .hasMessage("route legacy declares no key");
    }
}
