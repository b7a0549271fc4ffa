package dev.redrive.core.failure;

import java.util.Optional;

/** One way of recognising a failure. Rules are tried in order; the first that recognises a throwable wins. */
@FunctionalInterface
public interface ClassificationRule {
    Optional<Classification> classify(Throwable failure);
}
