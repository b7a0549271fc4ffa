package dev.redrive.core.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FailureClassifierTest {

    static final class InsufficientFunds extends RuntimeException {
        InsufficientFunds() {
            super("card declined");
        }
    }

    @Test
    void classifiedExceptionsSayWhatTheyAre() {
        FailureClassifier classifier = FailureClassifier.defaults();
        assertThat(classifier.classify(new TransientFailure("payments down", "payments")))
                .isEqualTo(new Classification(FailureClass.TRANSIENT, "TransientFailure", "payments down", "payments"));
        assertThat(classifier
                        .classify(new PermanentFailure("RuleViolated", "no"))
                        .failureClass())
                .isEqualTo(FailureClass.PERMANENT);
        assertThat(classifier
                        .classify(new SchemaViolation("NotJson", "not json"))
                        .errorType())
                .isEqualTo("NotJson");
    }

    @Test
    void networkTimeoutsAnywhereInTheCauseChainAreTransient() {
        Classification c = FailureClassifier.defaults()
                .classify(new IllegalStateException(
                        "wrapped", new UncheckedIOException(new SocketTimeoutException("read"))));
        assertThat(c.failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(c.errorType()).isEqualTo("SocketTimeoutException");
        assertThat(FailureClassifier.defaults()
                        .classify(new ConnectException("refused"))
                        .failureClass())
                .isEqualTo(FailureClass.TRANSIENT);
    }

    @Test
    void aConsumersDeclaredMappingWinsOverTheBuiltInRules() {
        FailureClassifier classifier = FailureClassifier.builder()
                .map(InsufficientFunds.class, FailureClass.PERMANENT)
                .map(SocketTimeoutException.class, FailureClass.PERMANENT, "legacy-gateway")
                .build();
        assertThat(classifier.classify(new RuntimeException(new InsufficientFunds())))
                .isEqualTo(Classification.of(FailureClass.PERMANENT, "InsufficientFunds", "card declined"));
        assertThat(classifier.classify(new SocketTimeoutException("t")).dependency())
                .isEqualTo("legacy-gateway");
    }

    @Test
    void adapterRulesComeAfterClassifiedExceptionsAndBeforeTheJdkRules() {
        FailureClassifier classifier = FailureClassifier.builder()
                .rule(t -> t instanceof SocketTimeoutException
                        ? Optional.of(Classification.of(FailureClass.PERMANENT, "Adapter", "x"))
                        : Optional.empty())
                .build();
        assertThat(classifier.classify(new SocketTimeoutException()).errorType())
                .isEqualTo("Adapter");
        assertThat(classifier.classify(new TransientFailure("t", null)).errorType())
                .isEqualTo("TransientFailure");
    }

    @Test
    void anythingElseRetriesAndStandsOutAsUnclassified() {
        Classification c = FailureClassifier.defaults().classify(new NullPointerException());
        assertThat(c.failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(c.errorType()).isEqualTo("Unclassified:NullPointerException");
    }

    @Test
    void poisonIsNeverDeclaredAtFailure() {
        assertThatThrownBy(() -> FailureClassifier.builder().map(OutOfMemoryError.class, FailureClass.POISON))
                .hasMessageContaining("inferred");
    }

    @Test
    void reasonsAreOneShortLine() {
        Classification c = Classification.of(FailureClass.PERMANENT, "X", "line one\nline two\t" + "y".repeat(500));
        assertThat(c.reason())
                .doesNotContain("\n")
                .hasSize(Classification.MAX_REASON_LENGTH)
                .startsWith("line one line two");
    }

    @Test
    void aCyclicCauseChainDoesNotLoop() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertThat(FailureClassifier.defaults().classify(a).failureClass()).isEqualTo(FailureClass.TRANSIENT);
    }
}
