package dev.redrive.functions.lambda;

import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.checkout.OrderPlaced;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types Jackson serializes by reflection, registered for the native image (the adapters and the checkout module are
 * plain Java and carry no Quarkus annotations).
 */
@RegisterForReflection(targets = {DeadLetterMetadata.class, OrderPlaced.class})
public final class NativeReflection {
    private NativeReflection() {}
}
