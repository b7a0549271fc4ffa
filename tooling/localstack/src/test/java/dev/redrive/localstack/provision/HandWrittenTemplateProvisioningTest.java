package dev.redrive.localstack.provision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** What the Redrive template does not use: FIFO queues, generated names, streams, local indexes. */
@LocalAwsTest(resetBeforeEach = true)
class HandWrittenTemplateProvisioningTest {

    private static final String TEMPLATE = """
            {
              "Resources": {
                "Orders": { "Type": "AWS::SQS::Queue", "Properties": {
                  "FifoQueue": true, "ContentBasedDeduplication": true, "DelaySeconds": 2
                } },
                "Ledger": { "Type": "AWS::DynamoDB::Table", "Properties": {
                  "KeySchema": [ { "AttributeName": "pk", "KeyType": "HASH" },
                                 { "AttributeName": "sk", "KeyType": "RANGE" } ],
                  "AttributeDefinitions": [ { "AttributeName": "pk", "AttributeType": "S" },
                                            { "AttributeName": "sk", "AttributeType": "S" },
                                            { "AttributeName": "at", "AttributeType": "N" } ],
                  "LocalSecondaryIndexes": [ { "IndexName": "byTime",
                    "KeySchema": [ { "AttributeName": "pk", "KeyType": "HASH" },
                                   { "AttributeName": "at", "KeyType": "RANGE" } ],
                    "Projection": { "ProjectionType": "KEYS_ONLY" } } ],
                  "StreamSpecification": { "StreamViewType": "NEW_AND_OLD_IMAGES" },
                  "ProvisionedThroughput": { "ReadCapacityUnits": 5, "WriteCapacityUnits": 5 }
                } },
                "Files": { "Type": "AWS::S3::Bucket", "Properties": {} },
                "Relay": { "Type": "AWS::Lambda::Function", "Properties": {
                  "Runtime": "java21", "Handler": "h",
                  "Environment": { "Variables": {
                    "STREAM": { "Fn::GetAtt": ["Ledger", "StreamArn"] },
                    "QUEUE": { "Fn::GetAtt": ["Orders", "QueueName"] },
                    "BUCKET_ARN": { "Fn::GetAtt": ["Files", "Arn"] }
                  } }
                } }
              }
            }
            """;

    @Test
    void generatesNamesCreatesFifoQueuesStreamsAndLocalIndexes(LocalAws aws) {
        ProvisionedResources resources =
                new TemplateProvisioner(aws).provision(CloudFormationTemplate.parse(TEMPLATE), "Shop-Stack");

        LocalQueue orders = resources.queues().get("Orders");
        assertThat(orders.name()).isEqualTo("shop-stack-orders.fifo");
        assertThat(aws.sqs()
                        .getQueueAttributes(b -> b.queueUrl(orders.url()).attributeNames(QueueAttributeName.ALL))
                        .attributes())
                .containsEntry(QueueAttributeName.FIFO_QUEUE, "true")
                .containsEntry(QueueAttributeName.DELAY_SECONDS, "2");

        TableDescription ledger = aws.dynamoDb()
                .describeTable(b -> b.tableName("shop-stack-ledger"))
                .table();
        assertThat(ledger.streamSpecification().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
        assertThat(ledger.localSecondaryIndexes())
                .singleElement()
                .satisfies(i -> assertThat(i.indexName()).isEqualTo("byTime"));
        assertThat(resources.tables().get("Ledger").streamArn()).contains(ledger.latestStreamArn());

        assertThat(resources.buckets().get("Files").name()).isEqualTo("shop-stack-files");
        assertThat(aws.s3().listBuckets().buckets())
                .singleElement()
                .satisfies(b -> assertThat(b.name()).isEqualTo("shop-stack-files"));

        LocalFunction relay = resources.functions().get("Relay");
        assertThat(relay.name()).isEqualTo("shop-stack-relay");
        assertThat(relay.quarkusHandler()).isEmpty();
        assertThat(relay.environment())
                .isEqualTo(Map.of(
                        "STREAM", ledger.latestStreamArn(),
                        "QUEUE", "shop-stack-orders.fifo",
                        "BUCKET_ARN", "arn:aws:s3:::shop-stack-files"));
    }
}
