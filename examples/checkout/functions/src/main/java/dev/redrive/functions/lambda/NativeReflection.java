package dev.redrive.functions.lambda;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.checkout.OrderPlaced;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types Jackson serializes by reflection, registered for the native image (the adapters and the checkout module are
 * plain Java and carry no Quarkus annotations).
 */
@RegisterForReflection(
        targets = {
            DeadLetterMetadata.class,
            OrderPlaced.class,
            APIGatewayV2HTTPEvent.class,
            APIGatewayV2HTTPEvent.RequestContext.class,
            APIGatewayV2HTTPEvent.RequestContext.Http.class,
            APIGatewayV2HTTPEvent.RequestContext.IAM.class,
            APIGatewayV2HTTPEvent.RequestContext.Authorizer.class,
            APIGatewayV2HTTPResponse.class
        })
public final class NativeReflection {
    private NativeReflection() {}
}
