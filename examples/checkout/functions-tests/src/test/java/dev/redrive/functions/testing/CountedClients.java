package dev.redrive.functions.testing;

import dev.redrive.testing.localaws.LocalAws;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** SDK clients on local AWS whose calls are counted. */
public record CountedClients(
        DynamoDbClient dynamoDb, SqsClient sqs, ApiCallCounter dynamoDbCalls, ApiCallCounter sqsCalls) {

    public static CountedClients on(LocalAws aws) {
        ApiCallCounter ddbCalls = new ApiCallCounter();
        ApiCallCounter sqsCalls = new ApiCallCounter();
        DynamoDbClient ddb = DynamoDbClient.builder()
                .endpointOverride(aws.dynamoDbEndpoint())
                .region(aws.region())
                .credentialsProvider(aws.credentials())
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .addExecutionInterceptor(ddbCalls)
                        .build())
                .build();
        SqsClient sqs = SqsClient.builder()
                .endpointOverride(aws.sqsEndpoint())
                .region(aws.region())
                .credentialsProvider(aws.credentials())
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .addExecutionInterceptor(sqsCalls)
                        .build())
                .build();
        return new CountedClients(ddb, sqs, ddbCalls, sqsCalls);
    }

    public void reset() {
        dynamoDbCalls.reset();
        sqsCalls.reset();
    }
}
