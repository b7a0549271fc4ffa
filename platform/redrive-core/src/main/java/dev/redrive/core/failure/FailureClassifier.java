package dev.redrive.core.failure;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.DateTimeException;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Decides the class of a failure from the exception a consumer threw. Rules are tried in order, each against the
 * whole cause chain (outermost first):
 * <ol>
 *   <li>the consumer's own declared mappings ({@link Builder#map}), so a consumer can say what its exceptions mean;</li>
 *   <li>{@link ClassifiedException}s, which say what they are;</li>
 *   <li>extra rules from adapters (the AWS SDK's throttling and 5xx errors, for instance);</li>
 *   <li>the JDK's network, I/O and timeout exceptions, which are TRANSIENT;</li>
 *   <li>programming errors ({@link #PROGRAMMING_ERRORS}: a {@code NullPointerException}, an
 *       {@code IllegalArgumentException}, an {@code AssertionError}, ...), which are PERMANENT with the type
 *       {@code Bug:<exception>}.</li>
 * </ol>
 * Anything else is PERMANENT with the type {@code Unclassified:<exception>}.
 *
 * <p><b>Why a bug, or an exception nobody mapped, goes to the dead-letter queue at once rather than retrying.</b> A
 * retry helps only a failure that passes by itself, and those say so: timeouts, throttles, 5xx answers, connection and
 * I/O failures (the rules above, and the adapters'). A programming error does not pass: the same input takes the same
 * path and throws again, so retrying it spends the whole receive budget (ten receives with backoff: hours) before a
 * person hears of it, and the redrive policy then moves it without its reason, where it looks like POISON. Dead-lettered
 * at once, it reaches the quarantine with its type ({@code Bug:IllegalArgumentException}) and its reason; once the code
 * is fixed, a person replays it through the same checks as a first delivery (the claim makes that safe). The cost,
 * when an unmapped exception was in fact transient, is one replay by a person instead of an automatic retry; a
 * consumer that knows better declares the mapping ({@link Builder#map}), which wins over every built-in rule.
 */
public final class FailureClassifier {

    private static final Set<Class<? extends Throwable>> JDK_TRANSIENT = Set.of(
            SocketTimeoutException.class,
            ConnectException.class,
            NoRouteToHostException.class,
            UnknownHostException.class,
            TimeoutException.class,
            HttpTimeoutException.class,
            HttpConnectTimeoutException.class,
            IOException.class);

    /**
     * Exceptions that mean the code is wrong, not the world: retrying the same input does the same thing. A cause
     * chain holding one of them is a bug only when no rule before found a transient or classified cause in it.
     */
    public static final List<Class<? extends Throwable>> PROGRAMMING_ERRORS = List.of(
            NullPointerException.class,
            IllegalArgumentException.class,
            IllegalStateException.class,
            ClassCastException.class,
            IndexOutOfBoundsException.class,
            ArithmeticException.class,
            UnsupportedOperationException.class,
            ArrayStoreException.class,
            NegativeArraySizeException.class,
            NoSuchElementException.class,
            ConcurrentModificationException.class,
            DateTimeException.class,
            LinkageError.class,
            AssertionError.class);

    private final List<ClassificationRule> rules;

    private FailureClassifier(List<ClassificationRule> rules) {
        this.rules = List.copyOf(rules);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The classifier with only the built-in rules. */
    public static FailureClassifier defaults() {
        return builder().build();
    }

    public Classification classify(Throwable failure) {
        List<Throwable> chain = causeChain(failure);
        for (ClassificationRule rule : rules) {
            for (Throwable t : chain) {
                Optional<Classification> found = rule.classify(t);
                if (found.isPresent()) {
                    return found.get();
                }
            }
        }
        return Classification.of(
                FailureClass.PERMANENT, "Unclassified:" + failure.getClass().getSimpleName(), describe(failure));
    }

    static List<Throwable> causeChain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    static String describe(Throwable t) {
        String message = t.getMessage();
        return message == null || message.isBlank() ? t.getClass().getSimpleName() : message;
    }

    static Optional<Classification> classifiedException(Throwable t) {
        if (t instanceof ClassifiedException c) {
            return Optional.of(new Classification(c.failureClass(), c.errorType(), describe(c), c.dependency()));
        }
        return Optional.empty();
    }

    static Optional<Classification> jdkTransient(Throwable t) {
        for (Class<? extends Throwable> type : JDK_TRANSIENT) {
            if (type.isInstance(t)) {
                return Optional.of(
                        Classification.of(FailureClass.TRANSIENT, t.getClass().getSimpleName(), describe(t)));
            }
        }
        return Optional.empty();
    }

    static Optional<Classification> programmingError(Throwable t) {
        for (Class<? extends Throwable> type : PROGRAMMING_ERRORS) {
            if (type.isInstance(t)) {
                return Optional.of(Classification.of(
                        FailureClass.PERMANENT, "Bug:" + t.getClass().getSimpleName(), describe(t)));
            }
        }
        return Optional.empty();
    }

    /** Builds a classifier: consumer mappings first, then the built-in rules, then adapter rules, the JDK's, bugs. */
    public static final class Builder {
        private final List<ClassificationRule> declared = new ArrayList<>();
        private final List<ClassificationRule> extra = new ArrayList<>();

        /**
         * Declares that {@code type} (and its subclasses) means {@code failureClass}, optionally naming the
         * dependency it stands for (so maintenance windows can match it).
         */
        public Builder map(Class<? extends Throwable> type, FailureClass failureClass, String dependency) {
            if (failureClass == FailureClass.POISON) {
                throw new IllegalArgumentException("POISON is inferred from evidence, never declared at failure");
            }
            declared.add(t -> type.isInstance(t)
                    ? Optional.of(new Classification(failureClass, type.getSimpleName(), describe(t), dependency))
                    : Optional.empty());
            return this;
        }

        public Builder map(Class<? extends Throwable> type, FailureClass failureClass) {
            return map(type, failureClass, null);
        }

        /** Adds a rule tried after the declared mappings and classified exceptions, before the JDK's. */
        public Builder rule(ClassificationRule rule) {
            extra.add(rule);
            return this;
        }

        public FailureClassifier build() {
            List<ClassificationRule> all = new ArrayList<>(declared);
            all.add(FailureClassifier::classifiedException);
            all.addAll(extra);
            all.add(FailureClassifier::jdkTransient);
            all.add(FailureClassifier::programmingError);
            return new FailureClassifier(all);
        }
    }
}
