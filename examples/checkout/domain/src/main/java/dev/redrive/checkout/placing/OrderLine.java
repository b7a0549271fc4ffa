package dev.redrive.checkout.placing;

import java.util.Objects;

/**
 * One line of an order: a stock-keeping unit and how many.
 *
 * @param sku      1-64 visible ASCII characters (it is a DynamoDB key)
 * @param quantity 1 to {@value #MAX_QUANTITY}
 */
public record OrderLine(String sku, int quantity) {

    public static final int MAX_QUANTITY = 1000;

    public OrderLine {
        Objects.requireNonNull(sku, "sku");
        if (!CheckoutRequest.VISIBLE_ASCII.matcher(sku).matches() || sku.length() > 64) {
            throw new IllegalArgumentException("a sku is 1-64 visible ASCII characters");
        }
        if (quantity < 1 || quantity > MAX_QUANTITY) {
            throw new IllegalArgumentException("a quantity is 1 to " + MAX_QUANTITY + ", not " + quantity);
        }
    }
}
