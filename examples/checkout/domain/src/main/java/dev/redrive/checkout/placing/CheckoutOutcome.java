package dev.redrive.checkout.placing;

import java.time.Duration;
import java.util.List;

/** What a checkout answers, one case per HTTP response of {@code POST /orders}. */
public sealed interface CheckoutOutcome {

    /** The HTTP status of this answer. */
    int status();

    /** 201: the order (again, with no second charge or reservation, when {@code replayed}). */
    record Placed(PlacedOrder order, boolean replayed) implements CheckoutOutcome {
        public int status() {
            return 201;
        }
    }

    /** 422: the key was used with another request body. */
    record KeyReused() implements CheckoutOutcome {
        public int status() {
            return 422;
        }
    }

    /** 402: the payment was declined; no order, the reservation released. */
    record Declined(String reason) implements CheckoutOutcome {
        public int status() {
            return 402;
        }
    }

    /** 409: not enough stock of {@code skus}; nothing charged. */
    record OutOfStock(List<String> skus) implements CheckoutOutcome {
        public int status() {
            return 409;
        }
    }

    /**
     * 409 with Retry-After: another invocation is running this checkout now (a client retrying too early); the retry
     * after it gets its answer.
     */
    record InProgress(Duration retryAfter) implements CheckoutOutcome {
        public int status() {
            return 409;
        }
    }

    /** 503 with Retry-After: the payment provider did not answer; a retry with the same key finishes the order. */
    record ProviderUnavailable(Duration retryAfter) implements CheckoutOutcome {
        public int status() {
            return 503;
        }
    }

    /** 410: the checkout was abandoned, its authorization voided; a new checkout takes a new key. */
    record Abandoned() implements CheckoutOutcome {
        public int status() {
            return 410;
        }
    }
}
