package dev.redrive.sweeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tombstone TTL the CDK construct sets ({@code REDRIVE_SWEEPER_TOMBSTONE_TTL}) reaches the sweeper's settings. */
class SweeperFunctionSettingsTombstoneTest {

    @Test
    void theTombstoneTtlIsReadFromItsVariableAndAbsentWithoutIt() {
        assertThat(SweeperFunctionSettings.fromEnvironment(Map.of("REDRIVE_SWEEPER_TOMBSTONE_TTL", "P365D"))
                        .tombstoneTtl())
                .contains(Duration.ofDays(365));
        assertThat(SweeperFunctionSettings.fromEnvironment(Map.of()).tombstoneTtl())
                .isEqualTo(Optional.empty());
        assertThatThrownBy(
                        () -> SweeperFunctionSettings.fromEnvironment(Map.of("REDRIVE_SWEEPER_TOMBSTONE_TTL", "PT0S")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("REDRIVE_SWEEPER_TOMBSTONE_TTL must be positive, was PT0S");
    }
}
