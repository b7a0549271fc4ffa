package dev.redrive.cli;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The AWS clients of one CLI run, built on first use from the standard AWS settings in the {@link CliContext}'s
 * environment: {@code AWS_ENDPOINT_URL_<SERVICE>} then {@code AWS_ENDPOINT_URL} (so it works against local AWS or
 * LocalStack unchanged), {@code AWS_REGION} / {@code AWS_DEFAULT_REGION} then the profile's region, and
 * {@code AWS_ACCESS_KEY_ID} / {@code AWS_SECRET_ACCESS_KEY} / {@code AWS_SESSION_TOKEN} then the default chain
 * (profiles, SSO, instance roles).
 */
final class AwsClients implements AutoCloseable {

    private final CliContext context;
    private SdkHttpClient http;
    private SqsClient sqs;
    private DynamoDbClient dynamoDb;
    private S3Client s3;
    private StsClient sts;

    AwsClients(CliContext context) {
        this.context = context;
    }

    synchronized SqsClient sqs() {
        if (sqs == null) {
            sqs = configure(SqsClient.builder(), "SQS").build();
        }
        return sqs;
    }

    synchronized DynamoDbClient dynamoDb() {
        if (dynamoDb == null) {
            dynamoDb = configure(DynamoDbClient.builder(), "DYNAMODB").build();
        }
        return dynamoDb;
    }

    synchronized S3Client s3() {
        if (s3 == null) {
            s3 = configure(S3Client.builder(), "S3")
                    .forcePathStyle(endpoint("S3").isPresent())
                    .build();
        }
        return s3;
    }

    /** STS, with short timeouts: it only names the actor, and a slow answer must not hold the operator up. */
    synchronized StsClient sts() {
        if (sts == null) {
            sts = configure(StsClient.builder(), "STS")
                    .overrideConfiguration(ClientOverrideConfiguration.builder()
                            .apiCallTimeout(Duration.ofSeconds(5))
                            .build())
                    .build();
        }
        return sts;
    }

    /**
     * The endpoint of {@code service}: its own variable, then the shared one. For STS, a DynamoDB endpoint on this
     * machine is used too: local AWS (moto) serves STS on the endpoint it serves DynamoDB on.
     */
    Optional<URI> endpoint(String service) {
        Optional<String> value = context.var("AWS_ENDPOINT_URL_" + service).or(() -> context.var("AWS_ENDPOINT_URL"));
        if (value.isEmpty() && "STS".equals(service)) {
            value = context.var("AWS_ENDPOINT_URL_DYNAMODB").filter(AwsClients::loopback);
        }
        return value.map(v -> {
            try {
                URI uri = URI.create(v);
                if (uri.getScheme() == null || uri.getHost() == null) {
                    throw new IllegalArgumentException("no scheme or host");
                }
                return uri;
            } catch (IllegalArgumentException e) {
                throw CliException.config("AWS_ENDPOINT_URL for " + service + " is not a URL: " + v);
            }
        });
    }

    Region region() {
        Optional<String> configured = context.var("AWS_REGION").or(() -> context.var("AWS_DEFAULT_REGION"));
        if (configured.isPresent()) {
            return Region.of(configured.get());
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (SdkClientException e) {
            throw CliException.config("no AWS region: set AWS_REGION (or a region in your AWS profile)");
        }
    }

    private AwsCredentialsProvider credentials() {
        Optional<String> key = context.var("AWS_ACCESS_KEY_ID");
        Optional<String> secret = context.var("AWS_SECRET_ACCESS_KEY");
        if (key.isPresent() && secret.isPresent()) {
            Optional<String> token = context.var("AWS_SESSION_TOKEN");
            return StaticCredentialsProvider.create(
                    token.isPresent()
                            ? AwsSessionCredentials.create(key.get(), secret.get(), token.get())
                            : AwsBasicCredentials.create(key.get(), secret.get()));
        }
        DefaultCredentialsProvider.Builder chain = DefaultCredentialsProvider.builder();
        context.var("AWS_PROFILE").ifPresent(chain::profileName);
        return chain.build();
    }

    private <B extends AwsClientBuilder<B, ?>> B configure(B builder, String service) {
        if (http == null) {
            http = UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(5))
                    .socketTimeout(Duration.ofSeconds(60))
                    .build();
        }
        builder.region(region()).credentialsProvider(credentials());
        endpoint(service).ifPresent(builder::endpointOverride);
        if (builder instanceof SdkSyncClientBuilder<?, ?> sync) {
            sync.httpClient(http);
        }
        return builder;
    }

    private static boolean loopback(String url) {
        String host;
        try {
            host = Optional.ofNullable(URI.create(url).getHost()).orElse("").toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1");
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable c : new AutoCloseable[] {sqs, dynamoDb, s3, sts, http}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // closing at exit: nothing left to do with a client that will not close
                }
            }
        }
    }
}
