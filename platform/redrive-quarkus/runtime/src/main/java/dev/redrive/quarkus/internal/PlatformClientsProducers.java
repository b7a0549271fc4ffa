package dev.redrive.quarkus.internal;

import dev.redrive.aws.clients.PlatformClients;
import dev.redrive.quarkus.RedriveConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import software.amazon.awssdk.core.client.builder.SdkClientBuilder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.SqsClientBuilder;

/**
 * The application's DynamoDB, SQS and S3 clients: the builders the Quarkus Amazon extensions configure (endpoint,
 * region, credentials, HTTP client), with the retry rule of Redrive's own calls ({@link PlatformClients}), which every
 * function's tables, queues and buckets are reached with. An effect's client is built apart ({@code EffectClients}).
 */
@ApplicationScoped
public class PlatformClientsProducers {

    @Produces
    @Singleton
    DynamoDbClient dynamoDb(DynamoDbClientBuilder builder, RedriveConfig config) {
        return withTheRule(builder, config);
    }

    @Produces
    @Singleton
    SqsClient sqs(SqsClientBuilder builder, RedriveConfig config) {
        return withTheRule(builder, config);
    }

    @Produces
    @Singleton
    S3Client s3(S3ClientBuilder builder, RedriveConfig config) {
        return withTheRule(builder, config);
    }

    private static <B extends SdkClientBuilder<B, C>, C> C withTheRule(B builder, RedriveConfig config) {
        return builder.overrideConfiguration(
                        o -> PlatformClients.configure(o, config.aws().maxAttempts()))
                .build();
    }
}
