package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Growth: tombstones expire, every bucket has a lifecycle, every table is protected from deletion and the stack from
 * termination; each with its setting.
 */
class ExpiryAndProtectionTest {

    private final TemplateView t = Synth.defaults();

    private String bucket(String prefix) {
        return t.resources("AWS::S3::Bucket").keySet().stream()
                .filter(id -> id.startsWith(prefix))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void everyTableIsProtectedFromDeletionUnlessTheSettingTurnsItOff() {
        assertThat(t.resources("AWS::DynamoDB::Table"))
                .as("claims, quarantine, control, revenue, orders")
                .hasSize(5)
                .allSatisfy((id, table) ->
                        assertThat(map(table, "Properties")).containsEntry("DeletionProtectionEnabled", true));

        TemplateView off = Synth.template(Map.of("deletionProtection", "false"));
        assertThat(off.resources("AWS::DynamoDB::Table"))
                .hasSize(5)
                .allSatisfy((id, table) ->
                        assertThat(map(table, "Properties")).containsEntry("DeletionProtectionEnabled", false));
    }

    @Test
    void theStackIsProtectedFromTerminationUnlessTheSettingTurnsItOff() {
        assertThat(Synth.stack(Map.of()).getTerminationProtection()).isTrue();
        assertThat(Synth.stack(Map.of("terminationProtection", "false")).getTerminationProtection())
                .isFalse();
    }

    @Test
    void tombstonesExpireByTheLedgersTtlAfterTheArchivesDaysByDefault() {
        assertThat(t.properties(t.table("QuarantineTable")).get("TimeToLiveSpecification"))
                .isEqualTo(Map.of("AttributeName", "expiresAt", "Enabled", true));
        assertThat(t.environment(t.function("dlq-sweeper"))).containsEntry("REDRIVE_SWEEPER_TOMBSTONE_TTL", "P365D");

        TemplateView shorter = Synth.template(Map.of("tombstoneExpiryDays", "90", "archiveExpiryDays", "400"));
        assertThat(shorter.environment(shorter.function("dlq-sweeper")))
                .containsEntry("REDRIVE_SWEEPER_TOMBSTONE_TTL", "P90D");
        assertThatThrownBy(() -> Synth.stack(Map.of("tombstoneExpiryDays", "366")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-c tombstoneExpiryDays=366 must be 1 to archiveExpiryDays (365): a tombstone kept longer "
                        + "points at an archive object already gone");
    }

    @Test
    void emailsExpireAfterTheirSettingWhichMustCoverTheClaimTtl() {
        assertThat(t.properties(bucket("EmailOutboxBucket")).get("LifecycleConfiguration"))
                .isEqualTo(Map.of(
                        "Rules",
                        List.of(Map.of(
                                "Id",
                                "emails-expire",
                                "Status",
                                "Enabled",
                                "ExpirationInDays",
                                90,
                                "AbortIncompleteMultipartUpload",
                                Map.of("DaysAfterInitiation", 1)))));
        assertThatThrownBy(() -> Synth.stack(Map.of("emailRetentionDays", "20")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("-c emailRetentionDays=20 is shorter than the claim TTL (26 days)");
    }

    @Test
    void everyBucketHasALifecycleAndTheRoutesDocumentKeepsAYearOfReplacedVersions() {
        assertThat(t.resources("AWS::S3::Bucket"))
                .hasSize(4)
                .allSatisfy((id, b) -> assertThat(map(b, "Properties")).containsKey("LifecycleConfiguration"));
        assertThat(t.properties(bucket("SweeperRoutesBucket")).get("LifecycleConfiguration"))
                .isEqualTo(Map.of(
                        "Rules",
                        List.of(Map.of(
                                "Id",
                                "replaced-routes-expire",
                                "Status",
                                "Enabled",
                                "NoncurrentVersionExpiration",
                                Map.of("NoncurrentDays", 365),
                                "AbortIncompleteMultipartUpload",
                                Map.of("DaysAfterInitiation", 1)))));
    }
}
