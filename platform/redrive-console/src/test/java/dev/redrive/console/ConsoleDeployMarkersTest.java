package dev.redrive.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineState;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deploy markers: each dead letter carries the consumer's build version it failed in; the arrivals JSON marks exactly
 * where the version changed (not where it stayed, not where none was recorded), and the groups page names each group's
 * versions.
 */
class ConsoleDeployMarkersTest {

    private final ConsoleRig rig = new ConsoleRig();
    private String cookie;
    private final List<String> v2 = new ArrayList<>();
    private final List<String> rollback = new ArrayList<>();

    @BeforeEach
    void seed() {
        rig.seed(
                ConsoleRig.ORDERS,
                3,
                FailureClass.TRANSIENT,
                "Timeout",
                QuarantineState.QUARANTINED,
                Duration.ofHours(5),
                "1.4.0");
        rig.seed(
                ConsoleRig.ORDERS,
                2,
                FailureClass.TRANSIENT,
                "Timeout",
                QuarantineState.QUARANTINED,
                Duration.ofHours(4),
                "");
        rig.seed(
                ConsoleRig.ORDERS,
                2,
                FailureClass.TRANSIENT,
                "Timeout",
                QuarantineState.ARCHIVED,
                Duration.ofHours(3),
                "1.4.0");
        v2.addAll(rig.seed(
                ConsoleRig.ORDERS,
                3,
                FailureClass.PERMANENT,
                "InvalidRecipient",
                QuarantineState.QUARANTINED,
                Duration.ofHours(2),
                "1.5.0"));
        rollback.addAll(rig.seed(
                ConsoleRig.ORDERS,
                1,
                FailureClass.TRANSIENT,
                "Timeout",
                QuarantineState.QUARANTINED,
                Duration.ofMinutes(90),
                "1.4.0"));
        rig.seed(
                ConsoleRig.PAYMENTS,
                2,
                FailureClass.TRANSIENT,
                "Throttled",
                QuarantineState.QUARANTINED,
                Duration.ofHours(1),
                "9.0");
        cookie = rig.openSession();
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    private JsonNode arrivals(String query) throws Exception {
        HttpResponse<String> r = rig.get("/api/arrivals?" + query, cookie);
        assertThat(r.statusCode()).isEqualTo(200);
        return new ObjectMapper().readTree(r.body());
    }

    private long arrivedAt(String id) {
        return rig.operator.show(id).orElseThrow().arrivedAt().getEpochSecond();
    }

    @Test
    void theArrivalsMarkExactlyWhereTheVersionChanged() throws Exception {
        JsonNode day = arrivals("queue=orders&since=24h");

        assertThat(day.get("markers")).hasSize(2);
        assertThat(day.get("markers").get(0).get("at").asLong()).isEqualTo(arrivedAt(v2.get(0)));
        assertThat(day.get("markers").get(0).get("version").asText()).isEqualTo("1.5.0");
        assertThat(day.get("markers").get(0).get("from").asText()).isEqualTo("1.4.0");
        assertThat(day.get("markers").get(1).get("at").asLong()).isEqualTo(arrivedAt(rollback.get(0)));
        assertThat(day.get("markers").get(1).get("version").asText()).isEqualTo("1.4.0");
        assertThat(day.get("markers").get(1).get("from").asText()).isEqualTo("1.5.0");

        JsonNode lastHour = arrivals("queue=orders&since=1h");
        assertThat(lastHour.get("markers")).as("no change inside the last hour").isEmpty();
        JsonNode payments = arrivals("queue=payments&since=24h");
        assertThat(payments.get("markers"))
                .as("one version, first ever recorded: no change")
                .isEmpty();
    }

    @Test
    void theGroupsPageShowsTheVersionsOfEachGroup() {
        Document page = rig.page("/groups?state=all", cookie);

        assertThat(page.select("#groups tbody tr"))
                .anySatisfy(row -> {
                    assertThat(row.select("td").get(2).text()).isEqualTo("Timeout");
                    assertThat(row.selectFirst("td.versions").text()).isEqualTo("1.4.0");
                })
                .anySatisfy(row -> {
                    assertThat(row.select("td").get(2).text()).isEqualTo("InvalidRecipient");
                    assertThat(row.selectFirst("td.versions").text()).isEqualTo("1.5.0");
                })
                .anySatisfy(row -> {
                    assertThat(row.select("td").get(2).text()).isEqualTo("Throttled");
                    assertThat(row.selectFirst("td.versions").text()).isEqualTo("9.0");
                });
    }
}
