package dev.redrive.aws.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.breaker.BreakerStore;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.WindowChange;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.replay.MaintenanceWindowsContract;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class DynamoDbMaintenanceWindowsTest extends MaintenanceWindowsContract {
    private static DynamoDbMaintenanceWindows windows;
    private static DynamoDbBreakerStore breakers;
    private static LocalAws aws;
    private static String control;

    @BeforeAll
    static void table() {
        aws = LocalAws.shared();
        control = ControlTables.control(aws);
        windows = new DynamoDbMaintenanceWindows(aws.dynamoDb(), control);
        breakers = new DynamoDbBreakerStore(aws.dynamoDb(), control);
    }

    /** A window stored before windows could hold breakers has no {@code holdsBreaker}: it is changed as read. */
    @Test
    void aWindowStoredWithoutItsHoldIsChangedAsOneThatHoldsNothing() {
        String id = "w-" + UUID.randomUUID();
        Instant start = Instant.parse("2026-11-29T02:00:00Z");
        aws.dynamoDb()
                .putItem(b -> b.tableName(control)
                        .item(Map.of(
                                "pk", AttributeValue.fromS("window"),
                                "sk", AttributeValue.fromS(id),
                                "dependency", AttributeValue.fromS("email-provider"),
                                "start", AttributeValue.fromN(Long.toString(start.toEpochMilli())),
                                "end",
                                        AttributeValue.fromN(Long.toString(
                                                start.plusSeconds(60).toEpochMilli())),
                                "approvedBy", AttributeValue.fromS("ada"),
                                "reason", AttributeValue.fromS("-"))));
        MaintenanceWindow stored = windows.find(id).orElseThrow();
        assertThat(stored.holdsBreaker()).isFalse();

        assertThat(windows.change(new WindowChange(id, Optional.of(stored), Optional.empty()), List.of()))
                .isTrue();
        assertThat(windows.find(id)).isEmpty();
    }

    @Override
    protected MaintenanceWindows windows() {
        return windows;
    }

    @Override
    protected BreakerStore breakers() {
        return breakers;
    }
}
