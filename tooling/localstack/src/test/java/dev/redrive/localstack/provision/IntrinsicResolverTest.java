package dev.redrive.localstack.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.localstack.provision.CloudFormationTemplate.Resource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IntrinsicResolverTest {

    private static final String TEMPLATE = """
            {
              "Parameters": { "Stage": { "Type": "String", "Default": "dev" } },
              "Mappings": { "Sizes": { "us-east-1": { "Memory": 512 } } },
              "Resources": {
                "Source": { "Type": "AWS::SQS::Queue", "Properties": {
                  "QueueName": { "Fn::Sub": "${AWS::StackName}-orders-${Stage}" },
                  "RedrivePolicy": { "deadLetterTargetArn": { "Fn::GetAtt": ["Dlq", "Arn"] }, "maxReceiveCount": 3 }
                } },
                "Dlq": { "Type": "AWS::SQS::Queue", "Properties": {
                  "QueueName": "orders-dlq",
                  "RedriveAllowPolicy": { "redrivePermission": "byQueue", "sourceQueueArns": [
                    { "Fn::Join": ["", ["arn:", { "Ref": "AWS::Partition" }, ":sqs:", { "Ref": "AWS::Region" }, ":",
                      { "Ref": "AWS::AccountId" }, ":orders"]] } ] }
                } },
                "Key": { "Type": "AWS::KMS::Key", "Properties": {} },
                "Role": { "Type": "AWS::IAM::Role", "Properties": {} },
                "Fn": { "Type": "AWS::Lambda::Function", "DependsOn": ["Role"], "Properties": {
                  "Role": { "Fn::GetAtt": ["Role", "Arn"] },
                  "MemorySize": { "Fn::FindInMap": ["Sizes", { "Ref": "AWS::Region" }, "Memory"] },
                  "Environment": { "Variables": {
                    "QUEUE_URL": { "Ref": "Source" },
                    "DLQ_NAME": { "Fn::Select": [5, { "Fn::Split": [":", { "Fn::GetAtt": ["Dlq", "Arn"] }] }] },
                    "KEY": { "Fn::GetAtt": ["Key", "Arn"] },
                    "LITERAL": { "Fn::Sub": ["${!Literal} ${Who} in ${Source.QueueName}", { "Who": "me" }] },
                    "GONE": { "Ref": "AWS::NoValue" },
                    "URL_SUFFIX": { "Ref": "AWS::URLSuffix" }
                  } }
                } }
              }
            }
            """;

    private final CloudFormationTemplate template = CloudFormationTemplate.parse(TEMPLATE);
    private final ResourceRegistry registry = new ResourceRegistry(template, "Shop", "us-east-1", "000000000000");
    private final IntrinsicResolver resolver = new IntrinsicResolver(
            registry,
            Map.of(
                    "AWS::Region",
                    "us-east-1",
                    "AWS::AccountId",
                    "000000000000",
                    "AWS::Partition",
                    "aws",
                    "AWS::URLSuffix",
                    "amazonaws.com",
                    "AWS::StackName",
                    "Shop"),
            template.mappings());

    IntrinsicResolverTest() {
        registry.resolver(resolver);
        registry.register(
                "Source",
                "http://local/000000000000/Shop-orders-dev",
                Map.of("Arn", "arn:aws:sqs:us-east-1:000000000000:Shop-orders-dev", "QueueName", "Shop-orders-dev"));
        registry.register(
                "Dlq",
                "http://local/000000000000/orders-dlq",
                Map.of("Arn", "arn:aws:sqs:us-east-1:000000000000:orders-dlq", "QueueName", "orders-dlq"));
    }

    private JsonNode properties(String logicalId) {
        return resolver.resolve(template.resources().get(logicalId).properties());
    }

    @Test
    void resolvesSubWithPseudoParametersAndParameterDefaults() {
        assertThat(properties("Source").path("QueueName").asText()).isEqualTo("Shop-orders-dev");
    }

    @Test
    void resolvesGetAttInsideObjectsAndJoinsPseudoParameters() {
        assertThat(properties("Source").path("RedrivePolicy").toString())
                .isEqualTo(
                        "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:orders-dlq\",\"maxReceiveCount\":3}");
        assertThat(properties("Dlq")
                        .path("RedriveAllowPolicy")
                        .path("sourceQueueArns")
                        .path(0)
                        .asText())
                .isEqualTo("arn:aws:sqs:us-east-1:000000000000:orders");
    }

    @Test
    void resolvesRefSelectSplitFindInMapSubVariablesAndDropsNoValue() {
        JsonNode fn = properties("Fn");
        JsonNode env = fn.path("Environment").path("Variables");

        assertThat(env.path("QUEUE_URL").asText()).isEqualTo("http://local/000000000000/Shop-orders-dev");
        assertThat(env.path("DLQ_NAME").asText()).isEqualTo("orders-dlq");
        assertThat(env.path("LITERAL").asText()).isEqualTo("${Literal} me in Shop-orders-dev");
        assertThat(env.path("URL_SUFFIX").asText()).isEqualTo("amazonaws.com");
        assertThat(env.has("GONE")).isFalse();
        assertThat(fn.path("MemorySize").asInt()).isEqualTo(512);
        assertThat(fn.toString()).doesNotContain("Ref", "Fn::");
    }

    @Test
    void resourcesNotCreatedLocallyGetStableMadeUpValues() {
        String key = properties("Fn")
                .path("Environment")
                .path("Variables")
                .path("KEY")
                .asText();

        assertThat(key).matches("arn:aws:kms:us-east-1:000000000000:key/[0-9a-f-]{36}");
        assertThat(properties("Fn")
                        .path("Environment")
                        .path("Variables")
                        .path("KEY")
                        .asText())
                .isEqualTo(key);
        assertThat(properties("Fn").path("Role").asText()).isEqualTo("arn:aws:iam::000000000000:role/shop-role");
        assertThat(registry.ref("Fn").asText()).isEqualTo("shop-fn");
    }

    @Test
    void createsEachResourceAfterTheOnesItRefersTo() {
        var order = template.creationOrder().stream().map(Resource::logicalId).toList();

        assertThat(order).containsExactlyInAnyOrder("Source", "Dlq", "Key", "Role", "Fn");
        assertThat(order.indexOf("Dlq")).isLessThan(order.indexOf("Source"));
        assertThat(order.indexOf("Source")).isLessThan(order.indexOf("Fn"));
        assertThat(order.indexOf("Role")).isLessThan(order.indexOf("Fn"));
    }

    @Test
    void unknownReferencesAndUnsupportedFunctionsSayWhat() {
        assertThatThrownBy(() -> resolver.resolve(CloudFormationTemplate.parse(
                                "{\"Resources\":{\"A\":{\"Type\":\"X::Y::Z\",\"Properties\":{\"P\":{\"Ref\":\"Nope\"}}}}}")
                        .resources()
                        .get("A")
                        .properties()))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("Nope");
        assertThatThrownBy(() -> resolver.resolve(CloudFormationTemplate.parse(
                                "{\"Resources\":{\"A\":{\"Type\":\"X::Y::Z\",\"Properties\":{\"P\":{\"Fn::ImportValue\":\"x\"}}}}}")
                        .resources()
                        .get("A")
                        .properties()))
                .hasMessageContaining("Fn::ImportValue is not supported locally");
        assertThatThrownBy(() -> CloudFormationTemplate.parse("""
                {"Resources":{"A":{"Type":"T","Properties":{"P":{"Ref":"B"}}},
                              "B":{"Type":"T","Properties":{"P":{"Fn::GetAtt":["A","Arn"]}}}}}""").creationOrder())
                .hasMessageContaining("circular reference");
    }
}
