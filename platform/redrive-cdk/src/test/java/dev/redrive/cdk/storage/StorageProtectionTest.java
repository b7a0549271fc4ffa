package dev.redrive.cdk.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.kms.Key;

/** Expiry and protection of the platform's storage: deletion protection (a setting), tombstone TTL, bucket expiry. */
class StorageProtectionTest {

    private static int apps;

    private static Stack stack() {
        return new Stack(
                new App(AppProps.builder()
                        .outdir("target/test-cdk.out/storage-protection-" + (++apps))
                        .build()),
                "Redrive");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> tables(Stack stack) {
        Map<String, Map<String, Object>> out = new java.util.TreeMap<>();
        Template.fromStack(stack)
                .findResources("AWS::DynamoDB::Table")
                .forEach((id, r) -> out.put(id, (Map<String, Object>) ((Map<String, Object>) r).get("Properties")));
        return out;
    }

    @Test
    void everyTableIsProtectedFromDeletionByDefault() {
        Stack stack = stack();
        Key key = new Key(stack, "DataKey");
        Tables.create(stack, key);
        Tables.table(stack, "OwnTable", key, false).build();

        assertThat(tables(stack))
                .hasSize(4)
                .allSatisfy((id, table) -> assertThat(table).containsEntry("DeletionProtectionEnabled", true));
    }

    @Test
    void deletionProtectionIsASetting() {
        Stack stack = stack();
        Key key = new Key(stack, "DataKey");
        Tables.create(stack, key, false);
        Tables.table(stack, "OwnTable", key, false, false).build();

        assertThat(tables(stack))
                .hasSize(4)
                .allSatisfy((id, table) -> assertThat(table).containsEntry("DeletionProtectionEnabled", false));
    }

    @Test
    void theLedgerExpiresTombstonesByTheirExpiryAttribute() {
        Stack stack = stack();
        Tables.create(stack, new Key(stack, "DataKey"));

        Map<String, Object> quarantine = tables(stack).entrySet().stream()
                .filter(e -> e.getKey().startsWith("QuarantineTable"))
                .findFirst()
                .orElseThrow()
                .getValue();
        assertThat(quarantine.get("TimeToLiveSpecification"))
                .isEqualTo(Map.of("AttributeName", Tables.TOMBSTONE_EXPIRY_ATTRIBUTE, "Enabled", true));
        assertThat(Tables.TOMBSTONE_EXPIRY_ATTRIBUTE).isEqualTo("expiresAt");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aBucketsExpiryIsAddedWithItsSettingAndABadOneIsRefused() {
        Stack stack = stack();
        Key key = new Key(stack, "DataKey");
        Buckets.expireAfter(Buckets.bucket(stack, "OwnBucket", key).build(), "own-data-expires", 30);

        Map<String, Object> bucket = (Map<String, Object>) ((Map<String, Object>) Template.fromStack(stack)
                        .findResources("AWS::S3::Bucket")
                        .values()
                        .iterator()
                        .next())
                .get("Properties");
        assertThat(bucket.get("LifecycleConfiguration"))
                .isEqualTo(Map.of(
                        "Rules",
                        List.of(Map.of(
                                "Id",
                                "own-data-expires",
                                "Status",
                                "Enabled",
                                "ExpirationInDays",
                                30,
                                "AbortIncompleteMultipartUpload",
                                Map.of("DaysAfterInitiation", 1)))));
        assertThatThrownBy(() ->
                        Buckets.expireAfter(Buckets.bucket(stack, "Other", key).build(), "other", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the expiry of other must be at least 1 day, was 0");
    }
}
