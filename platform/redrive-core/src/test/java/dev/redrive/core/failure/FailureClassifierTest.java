package dev.redrive.core.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.List;
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
    void aProgrammingErrorGoesToAPersonAtOnceAsABug() {
        for (Throwable bug : List.of(
                new NullPointerException("Cannot invoke \"String.length()\" because \"s\" is null"),
                new IllegalArgumentException("invalid header value"),
                new IllegalStateException("not started"),
                new ClassCastException(),
                new IndexOutOfBoundsException(3),
                new ArithmeticException("/ by zero"),
                new UnsupportedOperationException(),
                new NoClassDefFoundError("dev/redrive/Gone"),
                new AssertionError("unreachable"))) {
            Classification c = FailureClassifier.defaults().classify(bug);
            assertThat(c.failureClass())
                    .as("%s never burns the receive budget", bug)
                    .isEqualTo(FailureClass.PERMANENT);
            assertThat(c.errorType()).isEqualTo("Bug:" + bug.getClass().getSimpleName());
        }
    }

    @Test
    void anUnmappedExceptionIsNotRetriedEitherAndStandsOutAsUnclassified() {
        Classification c = FailureClassifier.defaults().classify(new InsufficientFunds());
        assertThat(c.failureClass()).isEqualTo(FailureClass.PERMANENT);
        assertThat(c.errorType()).isEqualTo("Unclassified:InsufficientFunds");
    }

    @Test
    void anIoFailureIsTransientItPassesByItself() {
        Classification c = FailureClassifier.defaults().classify(new java.io.IOException("stream closed"));
        assertThat(c.failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(c.errorType()).isEqualTo("IOException");
    }

    @Test
    void aBugWrappingATransientCauseIsStillTransient() {
        Classification c = FailureClassifier.defaults()
                .classify(new IllegalStateException("send failed", new java.net.SocketException("Connection reset")));
        assertThat(c.failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(c.errorType()).isEqualTo("SocketException");
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
                .startsWith("line one\\nline two\\t");
    }

    @Test
    void controlAndFormatCharactersInAReasonAreEscapedNotKept() {
        Classification c = Classification.of(
                FailureClass.SCHEMA, "X", "key evt\u0000-1\u001b[31m\r\nFAKE LOG LINE\u202e\u2028 \ud800 \uffff done");
        assertThat(c.reason())
                .isEqualTo("key evt\\u0000-1\\u001b[31m\\r\\nFAKE LOG LINE\\u202e\\u2028 \\ud800 \\uffff done");
        assertThat(c.reason().codePoints()).allMatch(cp -> cp >= 0x20 && cp != 0x7f);
    }

    @Test
    void aShortenedReasonNeverEndsInHalfAnEscapeOrHalfACharacter() {
        String reason = "a".repeat(Classification.MAX_REASON_LENGTH - 4) + "\u0000\u0000";
        assertThat(Classification.of(FailureClass.SCHEMA, "X", reason).reason())
                .endsWith("a…")
                .hasSizeLessThanOrEqualTo(Classification.MAX_REASON_LENGTH);
        String emoji = "a".repeat(Classification.MAX_REASON_LENGTH - 2) + "\ud83d\ude00\ud83d\ude00";
        String shortened = Classification.of(FailureClass.SCHEMA, "X", emoji).reason();
        assertThat(Character.isHighSurrogate(shortened.charAt(shortened.length() - 2)))
                .isFalse();
    }

    @Test
    void aCyclicCauseChainDoesNotLoop() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertThat(FailureClassifier.defaults().classify(a).errorType()).isEqualTo("Unclassified:RuntimeException");
    }
}
