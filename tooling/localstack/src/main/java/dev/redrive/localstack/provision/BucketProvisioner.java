package dev.redrive.localstack.provision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.localstack.provision.CloudFormationTemplate.Resource;
import dev.redrive.testing.localaws.LocalAws;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionRule;
import software.amazon.awssdk.services.s3.model.Transition;

/**
 * Creates an {@code AWS::S3::Bucket} with its versioning, public access block, default encryption (accepted and
 * recorded by the local S3, not enforced) and lifecycle rules (expiration, transitions, non-current version
 * expiration, incomplete multipart uploads). Bucket policies are not applied. A bucket that exists is reconfigured.
 */
final class BucketProvisioner {

    private final S3Client s3;
    private final IntrinsicResolver resolver;
    private final ResourceRegistry registry;

    BucketProvisioner(S3Client s3, IntrinsicResolver resolver, ResourceRegistry registry) {
        this.s3 = s3;
        this.resolver = resolver;
        this.registry = registry;
    }

    LocalBucket create(Resource resource) {
        JsonNode props = resolver.resolve(resource.properties());
        String name = registry.physicalName(resource, "BucketName");
        try {
            s3.createBucket(b -> b.bucket(name));
        } catch (BucketAlreadyOwnedByYouException exists) {
            // provisioned before: configure it again below
        }
        if ("Enabled"
                .equals(props.path("VersioningConfiguration").path("Status").asText())) {
            s3.putBucketVersioning(
                    b -> b.bucket(name).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
        }
        JsonNode block = props.path("PublicAccessBlockConfiguration");
        if (block.isObject()) {
            s3.putPublicAccessBlock(b -> b.bucket(name)
                    .publicAccessBlockConfiguration(c -> c.blockPublicAcls(
                                    block.path("BlockPublicAcls").asBoolean(false))
                            .blockPublicPolicy(block.path("BlockPublicPolicy").asBoolean(false))
                            .ignorePublicAcls(block.path("IgnorePublicAcls").asBoolean(false))
                            .restrictPublicBuckets(
                                    block.path("RestrictPublicBuckets").asBoolean(false))));
        }
        JsonNode encryption = props.path("BucketEncryption")
                .path("ServerSideEncryptionConfiguration")
                .path(0);
        if (encryption.isObject()) {
            JsonNode byDefault = encryption.path("ServerSideEncryptionByDefault");
            ServerSideEncryptionRule rule = ServerSideEncryptionRule.builder()
                    .bucketKeyEnabled(encryption.path("BucketKeyEnabled").asBoolean(false))
                    .applyServerSideEncryptionByDefault(d -> d.sseAlgorithm(
                                    byDefault.path("SSEAlgorithm").asText("AES256"))
                            .kmsMasterKeyID(
                                    byDefault.path("KMSMasterKeyID").isMissingNode()
                                            ? null
                                            : byDefault.path("KMSMasterKeyID").asText()))
                    .build();
            s3.putBucketEncryption(b -> b.bucket(name).serverSideEncryptionConfiguration(c -> c.rules(rule)));
        }
        List<LifecycleRule> rules =
                lifecycleRules(props.path("LifecycleConfiguration").path("Rules"));
        if (!rules.isEmpty()) {
            s3.putBucketLifecycleConfiguration(b -> b.bucket(name).lifecycleConfiguration(c -> c.rules(rules)));
        }
        registry.register(
                resource.logicalId(),
                name,
                Map.of(
                        "Arn", "arn:aws:s3:::" + name,
                        "DomainName", name + ".s3.amazonaws.com",
                        "RegionalDomainName", name + ".s3." + LocalAws.REGION + ".amazonaws.com",
                        "DualStackDomainName", name + ".s3.dualstack." + LocalAws.REGION + ".amazonaws.com",
                        "WebsiteURL", "http://" + name + ".s3-website-" + LocalAws.REGION + ".amazonaws.com"));
        return new LocalBucket(resource.logicalId(), name);
    }

    private static List<LifecycleRule> lifecycleRules(JsonNode rules) {
        List<LifecycleRule> out = new ArrayList<>();
        for (JsonNode rule : rules) {
            LifecycleRule.Builder b = LifecycleRule.builder()
                    .id(rule.path("Id").asText(null))
                    .status(rule.path("Status").asText("Enabled"))
                    .filter(f -> f.prefix(rule.path("Prefix").asText("")));
            if (rule.has("ExpirationInDays")) {
                b.expiration(e -> e.days(rule.path("ExpirationInDays").asInt()));
            }
            List<Transition> transitions = new ArrayList<>();
            rule.path("Transitions")
                    .forEach(t -> transitions.add(Transition.builder()
                            .storageClass(t.path("StorageClass").asText())
                            .days(t.path("TransitionInDays").asInt())
                            .build()));
            if (!transitions.isEmpty()) {
                b.transitions(transitions);
            }
            JsonNode noncurrent = rule.path("NoncurrentVersionExpiration");
            if (noncurrent.has("NoncurrentDays")) {
                b.noncurrentVersionExpiration(
                        n -> n.noncurrentDays(noncurrent.path("NoncurrentDays").asInt()));
            }
            JsonNode abort = rule.path("AbortIncompleteMultipartUpload");
            if (abort.has("DaysAfterInitiation")) {
                b.abortIncompleteMultipartUpload(a ->
                        a.daysAfterInitiation(abort.path("DaysAfterInitiation").asInt()));
            }
            out.add(b.build());
        }
        return out;
    }
}
