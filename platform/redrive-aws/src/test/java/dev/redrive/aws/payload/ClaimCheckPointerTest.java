package dev.redrive.aws.payload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The claim-check wire format against fixtures of what the SQS Extended Client Library writes. */
class ClaimCheckPointerTest {

    /** As AmazonSQSExtendedClient 2.x (payloadoffloading-common's PayloadS3Pointer) writes a body. */
    static final String LIBRARY_2X = "[\"software.amazon.payloadoffloading.PayloadS3Pointer\","
            + "{\"s3BucketName\":\"orders-large\",\"s3Key\":\"3b9f1c2e-6a0d-4a8e-9d51-0f1f7f2c5e11\"}]";
    /** As the library's 1.x versions wrote it. */
    static final String LIBRARY_1X = "[\"com.amazon.sqs.javamessaging.MessageS3Pointer\","
            + "{\"s3BucketName\":\"orders-large\",\"s3Key\":\"prefix/1f0c\"}]";

    @Test
    void readsThePointerBodiesTheLibraryWrites() {
        assertThat(ClaimCheckPointer.parse(LIBRARY_2X))
                .contains(new ClaimCheckPointer("orders-large", "3b9f1c2e-6a0d-4a8e-9d51-0f1f7f2c5e11"));
        assertThat(ClaimCheckPointer.parse(LIBRARY_1X)).contains(new ClaimCheckPointer("orders-large", "prefix/1f0c"));
        assertThat(ClaimCheckPointer.parse(" " + LIBRARY_2X + "\n")).isPresent();
    }

    @Test
    void writesTheLibrarysFormatByteForByte() {
        assertThat(new ClaimCheckPointer("orders-large", "3b9f1c2e-6a0d-4a8e-9d51-0f1f7f2c5e11").toBody())
                .isEqualTo(LIBRARY_2X);
    }

    @Test
    void refusesWhatIsNotExactlyAPointer() {
        for (String body : List.of(
                "",
                "{\"eventId\":\"evt-1\"}",
                "[\"software.amazon.payloadoffloading.PayloadS3Pointer\"]",
                "[\"java.lang.Runtime\",{\"s3BucketName\":\"b\",\"s3Key\":\"k\"}]",
                "[\"software.amazon.payloadoffloading.PayloadS3Pointer\",{\"s3BucketName\":\"b\"}]",
                "[\"software.amazon.payloadoffloading.PayloadS3Pointer\",{\"s3BucketName\":\"b\",\"s3Key\":7}]",
                "[\"software.amazon.payloadoffloading.PayloadS3Pointer\",{\"s3BucketName\":\"\",\"s3Key\":\"k\"}]",
                "[\"software.amazon.payloadoffloading.PayloadS3Pointer\",{\"s3BucketName\":\"b\",\"s3Key\":\"k\"},1]",
                "not json")) {
            assertThat(ClaimCheckPointer.parse(body)).as(body).isEmpty();
        }
    }

    @Test
    void theAttributeMarksAClaimCheckInEitherOfItsNames() {
        assertThat(ClaimCheckPointer.marks(Set.of("ExtendedPayloadSize", "traceparent")))
                .isTrue();
        assertThat(ClaimCheckPointer.marks(Set.of("SQSLargePayloadSize"))).isTrue();
        assertThat(ClaimCheckPointer.marks(Set.of("traceparent"))).isFalse();
        assertThat(ClaimCheckPointer.sizeOf("é")).isEqualTo("2");
    }
}
