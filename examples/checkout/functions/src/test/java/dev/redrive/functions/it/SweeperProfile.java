package dev.redrive.functions.it;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The packaged artifact running the dead-letter sweeper, as its Lambda function would. */
public final class SweeperProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.lambda.handler", "dlq-sweeper");
    }
}
