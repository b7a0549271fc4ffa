package dev.redrive.functions.checkout;

import java.util.Locale;

/** OrderPlaced bodies for tests, in both schema versions. */
public final class OrderEvents {
    private OrderEvents() {}

    public static String v2(String eventId, String orderId, long amountMinor, String currency) {
        return String.format(
                Locale.ROOT,
                "{\"eventType\":\"OrderPlaced\",\"version\":2,\"eventId\":\"%s\","
                        + "\"orderId\":\"%s\",\"customer\":{\"email\":\"ada@example.com\",\"name\":\"Ada\"},"
                        + "\"total\":{\"amountMinor\":%d,\"currency\":\"%s\"},\"placedAt\":\"2026-11-29T10:15:30Z\","
                        + "\"channel\":\"web\"}",
                eventId,
                orderId,
                amountMinor,
                currency);
    }

    public static String v1(String eventId, String orderId, long totalCents, String currency) {
        return String.format(
                Locale.ROOT,
                "{\"eventType\":\"OrderPlaced\",\"version\":1,\"eventId\":\"%s\","
                        + "\"orderId\":\"%s\",\"customerEmail\":\"ada@example.com\",\"totalCents\":%d,\"currency\":\"%s\","
                        + "\"placedAt\":\"2026-11-29T10:15:30Z\"}",
                eventId,
                orderId,
                totalCents,
                currency);
    }
}
