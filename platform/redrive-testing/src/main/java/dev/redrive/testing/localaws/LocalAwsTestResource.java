package dev.redrive.testing.localaws;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Local AWS for {@code @QuarkusTest}s: {@code @WithTestResource(LocalAwsTestResource.class)} points the application's
 * SQS, DynamoDB and S3 clients at the {@link LocalAws#shared() shared} instance of the test run. Stopping is left to
 * the JVM's exit, so every test class of the run shares one instance.
 */
public final class LocalAwsTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return LocalAws.shared().quarkusConfig();
    }

    @Override
    public void stop() {
        // shared across the test run; stopped by the JVM shutdown hook
    }
}
