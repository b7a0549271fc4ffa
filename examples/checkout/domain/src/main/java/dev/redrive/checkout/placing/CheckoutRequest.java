package dev.redrive.checkout.placing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.schema.StrictJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A checkout as the client asks for it ({@code POST /orders}): who, what, in which currency, paid how. Read strictly
 * ({@link StrictJson}: one object, no duplicate key, no trailing value); unknown fields are ignored. A bad request is
 * refused with a {@link BadCheckoutRequest} naming the field and the rule, never the value.
 *
 * @param customerEmail where the confirmation goes (sensitive: never logged)
 * @param items         1 to {@value #MAX_LINES} lines, each sku at most once
 * @param currency      ISO 4217 code, the currency of every item's price
 * @param paymentToken  the payment method as the provider tokenized it (sensitive)
 */
public record CheckoutRequest(String customerEmail, List<OrderLine> items, String currency, String paymentToken) {

    /** The most lines one order holds: each takes two items of the reservation's transaction (at most 100). */
    public static final int MAX_LINES = 25;

    static final Pattern VISIBLE_ASCII = Pattern.compile("[!-~]+");
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
    private static final StrictJson JSON =
            new StrictJson(Set.of("customer", "email", "items", "sku", "quantity", "currency", "paymentToken"));

    /** A request refused: 400, with what is wrong. */
    public static final class BadCheckoutRequest extends IllegalArgumentException {
        private final String code;

        public BadCheckoutRequest(String code, String message) {
            super(message);
            this.code = code;
        }

        /** A stable code for clients: {@code MissingField}, {@code InvalidField}, {@code NotJson}... */
        public String code() {
            return code;
        }
    }

    public CheckoutRequest {
        Objects.requireNonNull(customerEmail, "customerEmail");
        items = List.copyOf(items);
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(paymentToken, "paymentToken");
    }

    /** Reads a request body; refuses it with the field and the rule. */
    public static CheckoutRequest parse(String body) {
        ObjectNode root;
        try {
            root = JSON.readObject(body);
        } catch (SchemaViolation e) {
            throw new BadCheckoutRequest(e.errorType(), e.getMessage().replace("message body", "request body"));
        }
        String email = text(root.path("customer"), "email", "$.customer.email");
        if (email.length() > 320 || !EMAIL.matcher(email).matches()) {
            throw new BadCheckoutRequest("InvalidField", "$.customer.email is not one email address");
        }
        JsonNode items = root.get("items");
        if (items == null || !items.isArray() || items.isEmpty()) {
            throw new BadCheckoutRequest("MissingField", "$.items must be a list of 1 to " + MAX_LINES + " lines");
        }
        if (items.size() > MAX_LINES) {
            throw new BadCheckoutRequest("InvalidField", "$.items holds more than " + MAX_LINES + " lines");
        }
        List<OrderLine> lines = new ArrayList<>();
        Set<String> skus = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String at = "$.items[" + i + "]";
            String sku = text(items.get(i), "sku", at + ".sku");
            JsonNode quantity = items.get(i).get("quantity");
            if (quantity == null || !quantity.isIntegralNumber() || !quantity.canConvertToInt()) {
                throw new BadCheckoutRequest("InvalidField", at + ".quantity must be a whole number");
            }
            try {
                lines.add(new OrderLine(sku, quantity.intValue()));
            } catch (IllegalArgumentException e) {
                throw new BadCheckoutRequest("InvalidField", at + ": " + e.getMessage());
            }
            if (!skus.add(sku)) {
                throw new BadCheckoutRequest("InvalidField", at + ".sku appears in an earlier line too");
            }
        }
        String currency = text(root, "currency", "$.currency");
        if (!CURRENCY.matcher(currency).matches()) {
            throw new BadCheckoutRequest("InvalidField", "$.currency is not an ISO 4217 code (three capitals)");
        }
        String token = text(root, "paymentToken", "$.paymentToken");
        if (token.length() > 256 || !VISIBLE_ASCII.matcher(token).matches()) {
            throw new BadCheckoutRequest("InvalidField", "$.paymentToken is not 1-256 visible ASCII characters");
        }
        return new CheckoutRequest(email, lines, currency, token);
    }

    /**
     * Reads an {@code Idempotency-Key} header: 1-255 visible ASCII characters.
     *
     * @throws BadCheckoutRequest when it is missing or malformed
     */
    public static String idempotencyKey(String header) {
        if (header == null || header.isEmpty()) {
            throw new BadCheckoutRequest(
                    "MissingIdempotencyKey", "the Idempotency-Key header is required: a retry must not charge twice");
        }
        if (header.length() > 255 || !VISIBLE_ASCII.matcher(header).matches()) {
            throw new BadCheckoutRequest(
                    "InvalidIdempotencyKey", "the Idempotency-Key header is not 1-255 visible ASCII characters");
        }
        return header;
    }

    /**
     * The SHA-256 of the request's content, in hex: a key sent again with another body is refused (422), the same
     * body gets the first answer. The order of lines does not matter.
     */
    public String fingerprint() {
        List<String> lines = new ArrayList<>();
        items.forEach(l -> lines.add(l.sku() + "\u001e" + l.quantity()));
        lines.sort(null);
        String canonical = String.join("\u001f", customerEmail, String.join("\u001d", lines), currency, paymentToken);
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    private static String text(JsonNode parent, String field, String path) {
        JsonNode value = parent == null ? null : parent.get(field);
        if (value == null || value.isNull()) {
            throw new BadCheckoutRequest("MissingField", path + " is required");
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new BadCheckoutRequest("InvalidField", path + " must be a non-empty string");
        }
        return value.asText();
    }
}
