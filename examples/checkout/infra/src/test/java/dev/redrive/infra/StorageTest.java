package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;

class StorageTest {

    private final TemplateView t = Synth.defaults();

    @Test
    void claimsTableIsOnDemandKeyedByPkWithTtlRecoveryAndTheCustomerKey() {
        Map<String, Object> claims = t.properties(t.table("ClaimsTable"));

        assertThat(claims.get("BillingMode")).isEqualTo("PAY_PER_REQUEST");
        assertThat(claims.get("KeySchema")).isEqualTo(List.of(Map.of("AttributeName", "pk", "KeyType", "HASH")));
        assertThat(claims.get("AttributeDefinitions"))
                .isEqualTo(List.of(Map.of("AttributeName", "pk", "AttributeType", "S")));
        assertThat(claims.get("TimeToLiveSpecification"))
                .isEqualTo(Map.of("AttributeName", "expiresAt", "Enabled", true));
        assertThat(claims.get("PointInTimeRecoverySpecification"))
                .isEqualTo(Map.of("PointInTimeRecoveryEnabled", true));
        assertThat(map(claims, "SSESpecification"))
                .containsEntry("SSEEnabled", true)
                .containsEntry("SSEType", "KMS")
                .containsKey("KMSMasterKeyId");
    }

    @Test
    @SuppressWarnings("unchecked")
    void quarantineLedgerHasStateAndQueueIndexesSortedByArrival() {
        Map<String, Object> quarantine = t.properties(t.table("QuarantineTable"));

        assertThat(quarantine.get("KeySchema"))
                .isEqualTo(List.of(
                        Map.of("AttributeName", "pk", "KeyType", "HASH"),
                        Map.of("AttributeName", "sk", "KeyType", "RANGE")));
        assertThat((List<Object>) quarantine.get("GlobalSecondaryIndexes"))
                .containsExactlyInAnyOrder(index("byState", "state"), index("byQueue", "sourceQueue"));
        assertThat((List<Object>) quarantine.get("AttributeDefinitions"))
                .contains(
                        Map.of("AttributeName", "state", "AttributeType", "S"),
                        Map.of("AttributeName", "sourceQueue", "AttributeType", "S"),
                        Map.of("AttributeName", "arrivedAt", "AttributeType", "N"));
        assertThat(quarantine.get("PointInTimeRecoverySpecification"))
                .isEqualTo(Map.of("PointInTimeRecoveryEnabled", true));
    }

    private static Map<String, Object> index(String name, String partition) {
        return Map.of(
                "IndexName",
                name,
                "KeySchema",
                List.of(
                        Map.of("AttributeName", partition, "KeyType", "HASH"),
                        Map.of("AttributeName", "arrivedAt", "KeyType", "RANGE")),
                "Projection",
                Map.of("ProjectionType", "ALL"));
    }

    @Test
    void controlAndRevenueTablesHaveTheirKeysAndEveryTableIsEncryptedAndRetained() {
        assertThat(t.properties(t.table("ControlTable")).get("KeySchema"))
                .isEqualTo(List.of(
                        Map.of("AttributeName", "pk", "KeyType", "HASH"),
                        Map.of("AttributeName", "sk", "KeyType", "RANGE")));
        assertThat(t.properties(t.table("ControlTable")).get("PointInTimeRecoverySpecification"))
                .isEqualTo(Map.of("PointInTimeRecoveryEnabled", true));
        assertThat(t.properties(t.table("RevenueTable")).get("KeySchema"))
                .isEqualTo(List.of(Map.of("AttributeName", "pk", "KeyType", "HASH")));
        assertThat(t.resources("AWS::DynamoDB::Table")).hasSize(5).allSatisfy((id, table) -> {
            assertThat(table.get("DeletionPolicy")).isEqualTo("RetainExceptOnCreate");
            assertThat(map(map(table, "Properties"), "SSESpecification")).containsEntry("SSEType", "KMS");
        });
    }

    @Test
    void bucketsUseTheCustomerKeyBlockPublicAccessAndSurviveTheStack() {
        String key = t.resources("AWS::KMS::Key").keySet().iterator().next();
        assertThat(t.resources("AWS::S3::Bucket"))
                .as("archive, claim checks, email outbox, routes document")
                .hasSize(4)
                .allSatisfy((id, bucket) -> {
                    assertThat(bucket.get("DeletionPolicy")).isEqualTo("RetainExceptOnCreate");
                    Map<String, Object> props = map(bucket, "Properties");
                    assertThat(props.get("PublicAccessBlockConfiguration"))
                            .isEqualTo(Map.of(
                                    "BlockPublicAcls",
                                    true,
                                    "BlockPublicPolicy",
                                    true,
                                    "IgnorePublicAcls",
                                    true,
                                    "RestrictPublicBuckets",
                                    true));
                    Map<String, Object> rule = TemplateView.cast(
                            ((List<?>) map(props, "BucketEncryption").get("ServerSideEncryptionConfiguration")).get(0));
                    assertThat(rule.get("BucketKeyEnabled")).isEqualTo(true);
                    assertThat(rule.get("ServerSideEncryptionByDefault"))
                            .isEqualTo(Map.of(
                                    "SSEAlgorithm",
                                    "aws:kms",
                                    "KMSMasterKeyID",
                                    Map.of("Fn::GetAtt", List.of(key, "Arn"))));
                });
    }

    @Test
    void everyBucketPolicyDeniesRequestsWithoutTls() {
        assertThat(t.resources("AWS::S3::BucketPolicy")).hasSize(4);
        t.template()
                .allResourcesProperties(
                        "AWS::S3::BucketPolicy",
                        Map.of(
                                "PolicyDocument",
                                Map.of(
                                        "Statement",
                                        Match.arrayWith(List.of(Match.objectLike(Map.of(
                                                "Effect",
                                                "Deny",
                                                "Action",
                                                "s3:*",
                                                "Condition",
                                                Map.of("Bool", Map.of("aws:SecureTransport", "false")))))))));
    }

    @Test
    void archiveIsVersionedAndMovesToGlacierInstantRetrievalAfterThirtyDaysThenExpires() {
        t.template()
                .hasResourceProperties(
                        "AWS::S3::Bucket",
                        Map.of(
                                "VersioningConfiguration", Map.of("Status", "Enabled"),
                                "LifecycleConfiguration",
                                        Map.of(
                                                "Rules",
                                                List.of(Match.objectLike(Map.of(
                                                        "Status",
                                                        "Enabled",
                                                        "ExpirationInDays",
                                                        365,
                                                        "Transitions",
                                                        List.of(Map.of(
                                                                "StorageClass",
                                                                "GLACIER_IR",
                                                                "TransitionInDays",
                                                                30))))))));
    }

    @Test
    void tablesBucketsAndTheKeyAreRetainedOnDeleteAndReplaceButNotWhenTheirCreateRollsBack() {
        var kept = new java.util.LinkedHashMap<String, Map<String, Object>>();
        kept.putAll(t.resources("AWS::DynamoDB::Table"));
        kept.putAll(t.resources("AWS::S3::Bucket"));
        kept.putAll(t.resources("AWS::KMS::Key"));

        assertThat(kept).hasSize(5 + 4 + 1).allSatisfy((id, resource) -> {
            assertThat(resource.get("DeletionPolicy")).as(id).isEqualTo("RetainExceptOnCreate");
            assertThat(resource.get("UpdateReplacePolicy")).as(id).isEqualTo("Retain");
        });
    }

    @Test
    void noResourceThatOutlivesTheStackHasAFixedNameSoARedeployNeverMeetsItsOwnLeftovers() {
        List<String> nameProperties = List.of("TableName", "BucketName", "AliasName", "LogGroupName", "TopicName");
        var outliving = new java.util.ArrayList<String>();
        for (String type : List.of(
                "AWS::DynamoDB::Table", "AWS::S3::Bucket", "AWS::KMS::Key", "AWS::KMS::Alias", "AWS::Logs::LogGroup")) {
            t.resources(type).forEach((id, resource) -> {
                Object deletion = resource.get("DeletionPolicy");
                if ("Retain".equals(deletion) || "RetainExceptOnCreate".equals(deletion)) {
                    outliving.add(id);
                    assertThat(map(resource, "Properties"))
                            .as(id)
                            .doesNotContainKeys(nameProperties.toArray(String[]::new));
                }
            });
        }
        assertThat(outliving)
                .as("tables, buckets, the key and log groups are kept")
                .hasSize(5 + 4 + 1 + 7);
    }

    @Test
    void everyGeneratedTableNameTheCliReadsIsAStackOutput() {
        for (String output :
                List.of("ClaimsTableName", "QuarantineTableName", "ControlTableName", "RevenueTableName")) {
            t.template().hasOutput(output, Map.of());
        }
    }

    @Test
    void theKeysAliasGoesWithTheStackSoTheNextStackCanTakeItsName() {
        var aliases = t.resources("AWS::KMS::Alias");
        assertThat(aliases.values()).singleElement().satisfies(alias -> {
            assertThat(map(alias, "Properties")).containsEntry("AliasName", "alias/redrive-data");
            assertThat(alias.get("DeletionPolicy")).isIn(null, "Delete");
        });
    }

    @Test
    void theKeyRotates() {
        t.template().hasResourceProperties("AWS::KMS::Key", Map.of("EnableKeyRotation", true));
    }
}
