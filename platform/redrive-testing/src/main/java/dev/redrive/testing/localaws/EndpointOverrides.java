package dev.redrive.testing.localaws;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * Endpoints given from outside, the way the AWS SDKs and CLI read them: {@code AWS_ENDPOINT_URL_<SERVICE>} first,
 * then {@code AWS_ENDPOINT_URL} for every service. When a service has one, local AWS starts no emulator for it and
 * uses the endpoint as it is (a LocalStack, or any other SQS/DynamoDB/S3-compatible endpoint).
 */
public record EndpointOverrides(Optional<URI> sqs, Optional<URI> dynamoDb, Optional<URI> s3) {

    public static EndpointOverrides fromEnvironment() {
        return from(System.getenv());
    }

    public static EndpointOverrides from(Map<String, String> env) {
        Optional<URI> shared = uri(env, "AWS_ENDPOINT_URL");
        return new EndpointOverrides(
                uri(env, "AWS_ENDPOINT_URL_SQS").or(() -> shared),
                uri(env, "AWS_ENDPOINT_URL_DYNAMODB").or(() -> shared),
                uri(env, "AWS_ENDPOINT_URL_S3").or(() -> shared));
    }

    public boolean any() {
        return sqs.isPresent() || dynamoDb.isPresent() || s3.isPresent();
    }

    public boolean needsMoto() {
        return dynamoDb.isEmpty() || s3.isEmpty();
    }

    private static Optional<URI> uri(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            URI uri = URI.create(value.strip());
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("no scheme or host");
            }
            return Optional.of(uri);
        } catch (IllegalArgumentException e) {
            throw new LocalAwsException(name + "=" + value + " is not an endpoint URL (expected e.g. "
                    + "http://localhost:4566): " + e.getMessage());
        }
    }
}
