package dev.redrive.functions.config;

import dev.redrive.lambda.RedriveSettings;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Runs {@code redrive-lambda}'s claim-TTL check ({@link dev.redrive.lambda.ClaimTtlCheck}) when the application starts,
 * in the init phase, before any message is processed: a function whose claims would expire while a message can still
 * come back refuses to start.
 */
@ApplicationScoped
public class ClaimTtlCheck {

    void check(@Observes StartupEvent start, RedriveSettings settings) {
        dev.redrive.lambda.ClaimTtlCheck.check(settings.claims());
    }
}
