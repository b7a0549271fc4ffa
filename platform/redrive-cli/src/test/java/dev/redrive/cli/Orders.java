package dev.redrive.cli;

import java.util.Locale;

/** OrderPlaced bodies for tests: the current v2, the older v1 (upcastable), and incompatible ones. */
final class Orders {

    private Orders() {}

    static String v2(String eventId, long amountMinor) {
        return String.format(
                Locale.ROOT,
                "{\"eventType\":\"OrderPlaced\",\"version\":2,\"eventId\":\"%s\","
                        + "\"orderId\":\"o-%s\",\"customer\":{\"email\":\"ada@example.com\",\"name\":\"Ada Lovelace\"},"
                        + "\"total\":{\"amountMinor\":%d,\"currency\":\"EUR\"},\"placedAt\":\"2026-11-29T10:15:30Z\"}",
                eventId,
                eventId,
                amountMinor);
    }

    static String v1(String eventId) {
        return String.format(
                Locale.ROOT,
                "{\"eventType\":\"OrderPlaced\",\"version\":1,\"eventId\":\"%s\","
                        + "\"orderId\":\"o-%s\",\"customerEmail\":\"grace@example.com\",\"totalCents\":1999,"
                        + "\"currency\":\"EUR\",\"placedAt\":\"2026-11-29T10:15:30Z\"}",
                eventId,
                eventId);
    }

    /** A v0 payload: no schema, no upcaster. */
    static String v0(String eventId) {
        return String.format(
                Locale.ROOT,
                "{\"eventType\":\"OrderPlaced\",\"version\":0,\"eventId\":\"%s\","
                        + "\"email\":\"linus@example.com\",\"amount\":\"19.99 EUR\"}",
                eventId);
    }

    /** A v2 that breaks its schema: the total is a string. */
    static String brokenV2(String eventId) {
        return v2(eventId, 100).replace("{\"amountMinor\":100,\"currency\":\"EUR\"}", "\"19.99 EUR\"");
    }
}
