package dev.redrive.localstack.provision;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Lambda function of the template, as the local runner needs it (nothing is created for it).
 *
 * @param logicalId    its logical id
 * @param name         its function name (explicit or generated)
 * @param arn          its local ARN
 * @param quarkusHandler the {@code QUARKUS_LAMBDA_HANDLER} environment variable, when set
 * @param environment  every environment variable, intrinsics resolved to local values
 * @param timeout      the Lambda timeout (3 s when the template sets none)
 * @param memoryMb     the memory (128 MB when the template sets none)
 * @param runtime      the Lambda runtime, e.g. {@code provided.al2023} or {@code java21}
 * @param handler      the Lambda {@code Handler} property
 * @param architectures the architectures (x86_64 when the template sets none)
 */
public record LocalFunction(
        String logicalId,
        String name,
        String arn,
        Optional<String> quarkusHandler,
        Map<String, String> environment,
        Duration timeout,
        int memoryMb,
        String runtime,
        String handler,
        List<String> architectures) {

    /** The environment variable that picks the Quarkus handler. */
    public static final String QUARKUS_HANDLER_VARIABLE = "QUARKUS_LAMBDA_HANDLER";
}
