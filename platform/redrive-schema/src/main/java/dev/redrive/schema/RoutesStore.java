package dev.redrive.schema;

/**
 * Where a routes document kept in an object store is read from ({@code s3://bucket/key}): the port the AWS module
 * implements with S3, so this module stays free of the AWS SDK.
 */
@FunctionalInterface
public interface RoutesStore {

    /**
     * The object's bytes as UTF-8 text.
     *
     * @throws RuntimeException when it cannot be read; its message says which object and why
     */
    String read(String bucket, String key);
}
