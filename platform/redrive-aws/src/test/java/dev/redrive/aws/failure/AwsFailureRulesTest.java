package dev.redrive.aws.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

class AwsFailureRulesTest {

    @ParameterizedTest(name = "{0} {1} is {2}")
    @CsvSource({
        "409, ConditionalRequestConflict, TRANSIENT",
        "400, TransactionConflictException, TRANSIENT",
        "400, RequestTimeout, TRANSIENT",
        "400, ExpiredTokenException, TRANSIENT",
        "400, ProvisionedThroughputExceededException, TRANSIENT",
        "503, SlowDown, TRANSIENT",
        "403, AccessDenied, PERMANENT",
        "400, ValidationException, PERMANENT",
        "404, NoSuchBucket, PERMANENT",
        "412, PreconditionFailed, PERMANENT"
    })
    void serviceErrorsClassifyByStatusAndCode(int status, String code, FailureClass expected) {
        AwsServiceException e = AwsServiceException.builder()
                .statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .serviceName("test")
                        .build())
                .build();

        Classification c = AwsFailureRules.classify(e, "dependency").orElseThrow();

        assertThat(c.failureClass()).isEqualTo(expected);
        assertThat(c.errorType()).isEqualTo(code);
        assertThat(c.dependency()).isEqualTo("dependency");
    }
}
