package dev.redrive.core.failure;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
 *   <li>the JDK's network and timeout exceptions, which are TRANSIENT.</li>
 * </ol>
 * Anything else is TRANSIENT with the type {@code Unclassified:<exception>}: a retry with backoff is the safe default
 * (the redrive policy still bounds it) and the name makes it stand out in the ledger so someone declares a mapping.
 */
public final class FailureClassifier {

    private static final Set<Class<? extends Throwable>> JDK_TRANSIENT = Set.of(
            SocketTimeoutException.class,
            ConnectException.class,
            NoRouteToHostException.class,
            UnknownHostException.class,
            TimeoutException.class,
            HttpTimeoutException.class,
            HttpConnectTimeoutException.class);

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
                FailureClass.TRANSIENT, "Unclassified:" + failure.getClass().getSimpleName(), describe(failure));
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

    /** Builds a classifier: consumer mappings first, then the built-in rules, then adapter rules, then the JDK's. */
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
            return new FailureClassifier(all);
        }
    }
}
