package dev.redrive.localrun.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.checkout.CheckoutNames;
import java.util.Arrays;
import java.util.Optional;

/**
 * The named moments of the producer's work at which its sandbox can be killed: the checkout between its synchronous
 * steps, the relay between publishing and marking, the reconciliation between the void and the release. Each is known from the DynamoDB call the sandbox makes there, as
 * its counting proxy sees it (the orders table's item keys: {@code reservation#…}, {@code outbox#…}).
 */
public enum ProducerCrashPoint implements KillPoint {
    /**
     * The checkout's reservation transaction was applied; its sandbox dies before it reads the answer, so before it
     * asks the payment provider.
     */
    CHECKOUT_RESERVED("checkout-reserved", CheckoutNames.CHECKOUT, true, "after the reservation"),
    /**
     * The payment was authorized; the sandbox dies as it sends the transaction that places the order, which never
     * arrives.
     */
    CHECKOUT_AUTHORIZED(
            "checkout-authorized", CheckoutNames.CHECKOUT, false, "after the authorization, before the transaction"),
    /** The order's transaction was applied; the sandbox dies before it reads the answer, so before it responds. */
    CHECKOUT_PLACED("checkout-placed", CheckoutNames.CHECKOUT, true, "after the transaction, before responding"),
    /** The relay published its events; its sandbox dies as it sends their marks, which never arrive. */
    RELAY_PUBLISHED("relay-published", CheckoutNames.OUTBOX_RELAY, false, "after publishing, before marking"),
    /**
     * The reconciliation took an abandoned attempt into VOIDING and voided its authorization; its sandbox dies as it
     * sends the release of the attempt's stock (a transaction fenced by a ConditionCheck of the attempt), which never
     * arrives. A returning customer must not place the order on the void authorization; the next run ends it.
     */
    RECONCILIATION_VOIDED(
            "reconciliation-voided",
            CheckoutNames.CHECKOUT_RECONCILIATION,
            false,
            "after the void, before the release");

    private final String id;
    private final String function;
    private final boolean afterTheAnswer;
    private final String description;

    ProducerCrashPoint(String id, String function, boolean afterTheAnswer, String description) {
        this.id = id;
        this.function = function;
        this.afterTheAnswer = afterTheAnswer;
        this.description = description;
    }

    @Override
    public String id() {
        return id;
    }

    /** The handler of the function whose sandbox dies here. */
    public String function() {
        return function;
    }

    /** Whether the call is applied and its answer lost (the sandbox dies on it), or the call never arrives. */
    public boolean afterTheAnswer() {
        return afterTheAnswer;
    }

    @Override
    public String description() {
        return description;
    }

    /** Whether the DynamoDB call {@code operation} with request {@code body} is the one this point dies on. */
    public boolean isAt(String operation, JsonNode body) {
        return switch (this) {
            case CHECKOUT_RESERVED -> "TransactWriteItems".equals(operation) && anyPut(body, "reservation#");
            case CHECKOUT_AUTHORIZED, CHECKOUT_PLACED ->
                "TransactWriteItems".equals(operation) && anyPut(body, "outbox#");
            case RELAY_PUBLISHED -> isOutboxMark(operation, body);
            case RECONCILIATION_VOIDED -> "TransactWriteItems".equals(operation) && anyConditionCheck(body, "attempt");
        };
    }

    private static boolean anyConditionCheck(JsonNode body, String sortKey) {
        for (JsonNode item : body.path("TransactItems")) {
            if (sortKey(item.path("ConditionCheck").path("Key")).equals(sortKey)) {
                return true;
            }
        }
        return false;
    }

    /** The relay's marks: one UpdateItem of an outbox item, or a transaction of nothing but such updates. */
    public static boolean isOutboxMark(String operation, JsonNode body) {
        if ("UpdateItem".equals(operation)) {
            return sortKey(body.path("Key")).startsWith("outbox#");
        }
        if (!"TransactWriteItems".equals(operation)
                || body.path("TransactItems").isEmpty()) {
            return false;
        }
        for (JsonNode item : body.path("TransactItems")) {
            if (!sortKey(item.path("Update").path("Key")).startsWith("outbox#")) {
                return false;
            }
        }
        return true;
    }

    private static boolean anyPut(JsonNode body, String sortKeyPrefix) {
        for (JsonNode item : body.path("TransactItems")) {
            if (sortKey(item.path("Put").path("Item")).startsWith(sortKeyPrefix)) {
                return true;
            }
        }
        return false;
    }

    private static String sortKey(JsonNode item) {
        return item.path("sk").path("S").asText("");
    }

    public static Optional<ProducerCrashPoint> byId(String id) {
        return Arrays.stream(values()).filter(p -> p.id.equals(id)).findFirst();
    }
}
