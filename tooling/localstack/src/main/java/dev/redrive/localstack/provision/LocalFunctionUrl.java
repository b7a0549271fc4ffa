package dev.redrive.localstack.provision;

/**
 * A Lambda Function URL of the template ({@code AWS::Lambda::Url}): the local runner serves it on a loopback port.
 *
 * @param logicalId         its logical id
 * @param functionLogicalId the function it invokes
 * @param authType          {@code AWS_IAM} (requests must be SigV4-signed) or {@code NONE}
 * @param invokeMode        {@code BUFFERED} (the default) or {@code RESPONSE_STREAM}
 */
public record LocalFunctionUrl(String logicalId, String functionLogicalId, String authType, String invokeMode) {

    /** Whether a request must carry a SigV4 signature. */
    public boolean requiresSignature() {
        return "AWS_IAM".equals(authType);
    }
}
