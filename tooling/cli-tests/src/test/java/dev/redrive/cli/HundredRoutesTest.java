package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.checkout.CheckoutContracts;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.schema.DeclaredRoute;
import dev.redrive.schema.EventContract;
import dev.redrive.schema.KeySource;
import dev.redrive.schema.RoutesDocument;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Routes for a hundred consumers, each with its schemas, read by the CLI from S3 on local AWS (the form the sweeper
 * is given, {@code REDRIVE_ROUTES=s3://...}): a dead letter of the hundredth route is replayed through the checks its
 * declaration gives (upcast by its JSON Patch, claim lookup by its key pointer), with no consumer code in the CLI.
 */
@LocalAwsTest(resetBeforeEach = true)
class HundredRoutesTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String BUCKET = "redrive-routes-test";

    CliRig rig;

    @BeforeEach
    void rig(LocalAws aws) {
        rig = new CliRig(aws);
        aws.s3().createBucket(b -> b.bucket(BUCKET));
    }

    @Test
    void aDeadLetterOfTheHundredthRouteIsReplayedByItsDeclarationReadFromS3() throws Exception {
        List<DeclaredRoute> routes = new ArrayList<>();
        for (int i = 1; i < 100; i++) {
            routes.add(synthetic(i));
        }
        routes.add(CheckoutContracts.route(
                CliRig.CONSUMER, rig.queue.url(), rig.queue.dlqUrl(), ConfirmationEmailConsumer.DEPENDENCY));
        String document = new RoutesDocument(routes).toJson();
        int bytes = document.getBytes(StandardCharsets.UTF_8).length;
        System.out.printf(Locale.ROOT, "routes document: %d routes with their schemas, %,d bytes%n", 100, bytes);
        assertThat(bytes).as("far beyond the 4 KB of a Lambda environment").isGreaterThan(64 * 1024);
        rig.aws.s3().putObject(b -> b.bucket(BUCKET).key("routes.json"), RequestBody.fromString(document));
        rig.env.put(Settings.ROUTES, "s3://" + BUCKET + "/routes.json");
        rig.deadLetter("q-100", Orders.v1("e-100"), FailureClass.SCHEMA, "OutdatedVersion", Duration.ofHours(1));

        CliRig.Run run = rig.run("replay", "q-100", "--actor", "ada");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Message> sent = rig.drainSource();
        assertThat(sent).hasSize(1);
        JsonNode v2 = JSON.readTree(sent.get(0).body());
        assertThat(v2.path("version").asInt())
                .as("upcast by the declared patch")
                .isEqualTo(2);
        assertThat(v2.at("/customer/email").asText()).isEqualTo("grace@example.com");
        assertThat(rig.record("q-100").state()).isEqualTo(QuarantineState.REPLAYED);
    }

    @Test
    void aDeadLetterOfAConsumerNoRouteDeclaresIsRefusedNamingTheDeclaredOnes() {
        String document = new RoutesDocument(List.of(synthetic(1), synthetic(2))).toJson();
        rig.aws.s3().putObject(b -> b.bucket(BUCKET).key("routes.json"), RequestBody.fromString(document));
        rig.env.put(Settings.ROUTES, "s3://" + BUCKET + "/routes.json");
        rig.deadLetter("q-1", Orders.v2("e-1", 100), FailureClass.TRANSIENT, "Timeout", Duration.ofHours(1));

        CliRig.Run run = rig.run("replay", "q-1", "--actor", "ada");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFIG);
        assertThat(run.err())
                .contains("no route declares the consumer 'confirmation-email' (declared: consumer-001, consumer-002)");
        assertThat(rig.record("q-1").state()).as("nothing changed").isEqualTo(QuarantineState.QUARANTINED);
        assertThat(rig.drainSource()).isEmpty();
    }

    /** A consumer of its own event type, with two versions of a schema of a realistic size. */
    private static DeclaredRoute synthetic(int i) {
        String consumer = String.format(Locale.ROOT, "consumer-%03d", i);
        String type = String.format(Locale.ROOT, "Event%03d", i);
        Map<Integer, JsonNode> versions = new TreeMap<>();
        for (int v = 1; v <= 2; v++) {
            StringBuilder properties = new StringBuilder("\"type\":{\"const\":\"" + type + "\"},\"version\":{\"const\":"
                    + v + "},\"id\":{\"type\":\"string\",\"pattern\":\"^[!-~]{1,256}$\"}");
            for (int f = 0; f < 10 + v; f++) {
                properties.append(",\"field").append(f).append("\":{\"type\":\"string\",\"maxLength\":256}");
            }
            String schema = "{\"type\":\"object\",\"required\":[\"type\",\"version\",\"id\"],\"properties\":{"
                    + properties + "}}";
            try {
                versions.put(v, JSON.readTree(schema));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        JsonNode patch = JSON.createArrayNode()
                .add(JSON.createObjectNode()
                        .put("op", "replace")
                        .put("path", "/version")
                        .put("value", 2));
        return new DeclaredRoute(
                consumer,
                "q-" + consumer,
                "q-" + consumer + "-dlq",
                Optional.of(new EventContract(
                        consumer,
                        KeySource.pointer("/id"),
                        Optional.of("/type"),
                        Optional.of("/version"),
                        Map.of(type, new TreeMap<>(versions)),
                        Map.of(type, new TreeMap<>(Map.of(1, patch))))),
                Optional.empty());
    }
}
