package dev.redrive.checkout.placing;

import java.time.Instant;
import java.util.Objects;

/**
 * One checkout under its idempotency key: the request's fingerprint, the order it names, how far it got, and the
 * lease of the invocation running it (a fencing token: an invocation that outlived its lease, frozen or slow, has its
 * writes refused once another took over).
 *
 * @param key             the client's Idempotency-Key
 * @param fingerprint     the SHA-256 of the request body it was first sent with
 * @param orderId         the order it places
 * @param status          how far it got
 * @param token           the fencing token of the invocation holding it (grows by one per takeover)
 * @param leaseUntil      until when that invocation holds it
 * @param authorizationId the payment authorization, once there is one (null before)
 * @param reason          why it ended, for DECLINED and OUT_OF_STOCK (null otherwise)
 * @param startedAt       when it was first begun
 */
public record CheckoutAttempt(
        String key,
        String fingerprint,
        String orderId,
        Status status,
        long token,
        Instant leaseUntil,
        String authorizationId,
        String reason,
        Instant startedAt) {

    /** How far a checkout got. */
    public enum Status {
        /** Begun: stock may be reserved, the payment may be authorizing. */
        STARTED,
        /** The payment is authorized; the order is not written yet. */
        AUTHORIZED,
        /**
         * Being voided (by the reconciliation, or by a retry that found its stock released): no invocation can place
         * it any more, a client's retry is answered 410, and only the holder of its lease (or, once that lapses, the
         * reconciliation) ends it VOIDED, after voiding what was authorized under its key.
         */
        VOIDING,
        /** The order and its outbox event are written: the answer is 201, for good. */
        PLACED,
        /** The payment was declined; the reservation released: 402, for good. */
        DECLINED,
        /** Not enough stock; nothing charged: 409, for good. */
        OUT_OF_STOCK,
        /** Abandoned by its client: its authorization voided, its reservation released, by the reconciliation. */
        VOIDED;

        /** Whether the answer is final under this key. */
        public boolean finished() {
            return this == PLACED || this == DECLINED || this == OUT_OF_STOCK || this == VOIDED;
        }
    }

    public CheckoutAttempt {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(leaseUntil, "leaseUntil");
        Objects.requireNonNull(startedAt, "startedAt");
    }
}
