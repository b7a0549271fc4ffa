package dev.redrive.functions.lambda;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import dev.redrive.checkout.OrderPlaced;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The checkout's types Jackson serializes by reflection, registered for the native image (the checkout module is plain
 * Java and carries no Quarkus annotations); Redrive's own are the Redrive extension's build step's.
 */
@RegisterForReflection(
        targets = {
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
