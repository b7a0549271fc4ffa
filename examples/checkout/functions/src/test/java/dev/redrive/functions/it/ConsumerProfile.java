package dev.redrive.functions.it;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The packaged artifact running the confirmation-email consumer, as its Lambda function would. */
public final class ConsumerProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.lambda.handler", "confirmation-email");
    }
}
