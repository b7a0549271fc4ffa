package dev.redrive.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.redrive.testing.localaws.EndpointOverrides;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The launcher reads moto's list of its modules once instead of for every request (see moto_serialized.py, "Routing"):
 * requests still reach the right service, on the launcher every test uses and on one that keeps moto's own listing
 * ({@link MotoDeepCopyTransactionsTest#withMotosOwnListingTheSameRequestsRouteTheSameWay}: on its launcher, which keeps
 * moto's own code for routing as for rollbacks, rather than on a launcher of its own, a moto start of seconds).
 */
@LocalAwsTest
class MotoRoutingTest {

    @Test
    void theSharedLauncherListsMotosModulesOnceAndStillRoutesEachService(LocalAws aws) {
        assumeThat(EndpointOverrides.fromEnvironment().dynamoDb())
                .as("DynamoDB comes from AWS_ENDPOINT_URL, not from moto")
                .isEmpty();
        assertThat(aws.describe()).contains("routing modules=listed-once");

        try {
            routesDynamoDbAndS3(aws.dynamoDb(), aws.s3(), "routing-shared");
        } finally {
            aws.dynamoDb().deleteTable(b -> b.tableName("routing-shared"));
            aws.s3().deleteBucket(b -> b.bucket("routing-shared"));
        }
    }

    static void routesDynamoDbAndS3(DynamoDbClient dynamoDb, S3Client s3, String name) {
        dynamoDb.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("pk")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("pk")
                        .keyType(KeyType.HASH)
                        .build()));
        assertThat(dynamoDb.listTables().tableNames()).contains(name);
        s3.createBucket(b -> b.bucket(name));
        assertThat(s3.listBuckets().buckets())
                .anySatisfy(bucket -> assertThat(bucket.name()).isEqualTo(name));
    }
}
