package dev.redrive.checkout;

import dev.redrive.core.schema.Upcaster;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * OrderPlaced v1 to v2, the money migration: {@code customerEmail} becomes {@code customer.email}, and
 * {@code totalCents} + {@code currency} become {@code total.amountMinor} + {@code total.currency}. Nothing is
 * invented; every other field is kept as it was.
 */
public final class OrderPlacedV1ToV2 implements Upcaster {

    @Override
    public String eventType() {
        return OrderPlaced.EVENT_TYPE;
    }

    @Override
    public int fromVersion() {
        return 1;
    }

    @Override
    public Map<String, Object> upcast(Map<String, Object> v1) {
        Map<String, Object> v2 = new LinkedHashMap<>(v1);
        Object email = v2.remove("customerEmail");
        Object cents = v2.remove("totalCents");
        Object currency = v2.remove("currency");
        Map<String, Object> customer = new LinkedHashMap<>();
        customer.put("email", email);
        Map<String, Object> total = new LinkedHashMap<>();
        total.put("amountMinor", cents);
        total.put("currency", currency);
        v2.put("customer", customer);
        v2.put("total", total);
        v2.put("version", 2);
        return v2;
    }
}
