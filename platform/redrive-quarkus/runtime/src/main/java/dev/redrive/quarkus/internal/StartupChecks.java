package dev.redrive.quarkus.internal;

import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.lambda.ClaimTtlCheck;
import dev.redrive.lambda.RedriveSettings;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;

/**
 * What a consumer function does when it starts, in Lambda's init phase, before any message: refuses a claim TTL that
 * would expire while a message can still come back ({@link ClaimTtlCheck}), and builds the AWS clients, the claim
 * store and the batch machinery (by being injected them), so a cold sandbox's first batch does not pay for them.
 */
@ApplicationScoped
public class StartupChecks {

    void check(@Observes StartupEvent start, RedriveSettings settings, Instance<BatchProcessor> batches) {
        ClaimTtlCheck.check(settings.claims());
        batches.get();
    }
}
