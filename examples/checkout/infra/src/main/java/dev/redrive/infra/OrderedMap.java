package dev.redrive.infra;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map that iterates in the order its entries were written, for what the CDK serializes in iteration order: a filter
 * pattern's JSON text, a math expression's metrics array. {@code Map.of} iterates in an order that changes from one
 * JVM to the next, so a template built from it differs between synths that changed nothing ({@code cdk diff} shows a
 * change, a string compared in a test fails one run in two).
 */
public final class OrderedMap {

    private OrderedMap() {}

    /** The two entries, in this order; unmodifiable. */
    public static <K, V> Map<K, V> of(K k1, V v1, K k2, V v2) {
        Map<K, V> map = new LinkedHashMap<>();
        map.put(k1, v1);
        if (map.put(k2, v2) != null) {
            throw new IllegalArgumentException("duplicate key: " + k2);
        }
        return Collections.unmodifiableMap(map);
    }
}
