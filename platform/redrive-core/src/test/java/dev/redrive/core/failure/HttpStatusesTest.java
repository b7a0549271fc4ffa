package dev.redrive.core.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpStatusesTest {

    private final FailureClassifier classifier = FailureClassifier.defaults();

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 204, 299})
    void aSuccessPasses(int status) {
        assertThatCode(() -> HttpStatuses.check(status, "the webhook", "webhook"))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 429, 500, 502, 503, 504, 599})
    void aTimeoutThrottlingOrServerErrorIsTransientAndNamesItsDependency(int status) {
        assertThatThrownBy(() -> HttpStatuses.check(status, "the webhook", "webhook"))
                .isInstanceOfSatisfying(TransientFailure.class, e -> {
                    assertThat(classifier.classify(e).failureClass()).isEqualTo(FailureClass.TRANSIENT);
                    assertThat(classifier.classify(e).dependency()).isEqualTo("webhook");
                })
                .hasMessage("the webhook answered HTTP " + status);
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 301, 304, 400, 401, 403, 404, 409, 410, 422, 600})
    void anyOtherStatusIsPermanentCodedByIt(int status) {
        assertThatThrownBy(() -> HttpStatuses.check(status, "the webhook", "webhook"))
                .isInstanceOfSatisfying(
                        PermanentFailure.class,
                        e -> assertThat(classifier.classify(e).failureClass()).isEqualTo(FailureClass.PERMANENT))
                .hasMessage("the webhook answered HTTP " + status);
    }
}
