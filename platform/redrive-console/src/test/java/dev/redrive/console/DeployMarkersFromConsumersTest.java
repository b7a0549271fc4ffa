package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.MessageOutcome;
import dev.redrive.core.consumer.MessageProcessor;
import dev.redrive.core.consumer.ProcessingListener;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.PermanentFailure;
import dev.redrive.core.failure.TransientFailure;
import dev.redrive.core.operator.QuarantineQuery;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.testing.Messages;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deploy markers end to end on core's fakes: consumers built as {@code v1} and then {@code v2} each fail a message (one
 * dead-lettered by the consumer with its failure attached, one moved by the redrive policy with its failure on the
 * claim), the sweeper quarantines both, and the console's arrivals mark exactly one change, at the {@code v2} one.
 */
class DeployMarkersFromConsumersTest {

    private final ConsoleRig rig = new ConsoleRig();
    private final SweeperFixture fixture = rig.fixture;
    private final ObjectMapper json = new ObjectMapper();

    @AfterEach
    void stop() {
        rig.close();
    }

    /** The consumer as built in {@code version}, over the fixture's claims and clock. */
    private MessageProcessor consumerBuilt(String version) {
        return new MessageProcessor(
                        fixture.claims,
                        LeasePolicy.DEFAULT,
                        new FullJitterBackoff(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(5)),
                        new Mulberry32(1),
                        fixture.clock,
                        ProcessingListener.NONE)
                .withBuildVersion(version);
    }

    private MessageOutcome process(MessageProcessor consumer, IncomingMessage message) {
        return consumer.process(fixture.consumer, message, () -> Duration.ofSeconds(30));
    }

    @Test
    void twoBuildsFailingGiveOneMarkerAtTheChange() throws Exception {
        // v1 refuses order-1 for good: the consumer dead-letters it with its failure attached.
        fixture.consumer.failing("order-1", (k, c) -> new PermanentFailure("Refused", "the provider refused it"));
        IncomingMessage first = Messages.message("order-1|a");
        MessageOutcome refused = process(consumerBuilt("v1"), first);
        assertThat(refused).isInstanceOf(MessageOutcome.DeadLettered.class);
        MessageOutcome.DeadLettered sent = (MessageOutcome.DeadLettered) refused;
        assertThat(sent.failure().buildVersion()).isEqualTo("v1");
        fixture.dlq.add(
                SweeperFixture.ROUTE.deadLetterQueue(),
                new ArrivedDeadLetter(
                        "dlq-1",
                        "rh-1",
                        first.body(),
                        Map.of(),
                        first.receiveCount(),
                        fixture.clock.instant(),
                        Optional.of(new ArrivedDeadLetter.AttachedFailure(
                                "scripted", sent.key(), first.messageId(), sent.failure())),
                        Optional.empty()));
        fixture.sweep();

        // Ten minutes later v2 is deployed; order-2 times out on its last receive and the redrive policy moves it: its
        // failure is on its claim.
        fixture.clock.advance(Duration.ofMinutes(10));
        fixture.consumer.failing("order-2", (k, c) -> new TransientFailure("the provider timed out", "provider"));
        MessageOutcome timedOut = process(consumerBuilt("v2"), Messages.message("order-2|b", 3, null));
        assertThat(timedOut).isInstanceOf(MessageOutcome.RetryLater.class);
        fixture.clock.advance(Duration.ofMinutes(1));
        fixture.dlq.add(SweeperFixture.ROUTE.deadLetterQueue(), SweeperFixture.redriven("order-2|b", 3));
        fixture.sweep();

        List<QuarantineRecord> quarantined = rig.operator.list(QuarantineQuery.waiting(10)).stream()
                .sorted(Comparator.comparing(QuarantineRecord::arrivedAt))
                .toList();
        assertThat(quarantined)
                .extracting(r -> r.classification().failureClass(), QuarantineRecord::buildVersion)
                .containsExactly(tuple(FailureClass.PERMANENT, "v1"), tuple(FailureClass.TRANSIENT, "v2"));

        fixture.clock.advance(Duration.ofMinutes(1)); // the operator looks a minute later
        String cookie = rig.openSession();
        HttpResponse<String> r = rig.get("/api/arrivals?queue=orders&since=24h", cookie);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode markers = json.readTree(r.body()).get("markers");

        assertThat(markers).hasSize(1);
        assertThat(markers.get(0).get("version").asText()).isEqualTo("v2");
        assertThat(markers.get(0).get("from").asText()).isEqualTo("v1");
        assertThat(markers.get(0).get("at").asLong())
                .isEqualTo(quarantined.get(1).arrivedAt().getEpochSecond());
    }
}
