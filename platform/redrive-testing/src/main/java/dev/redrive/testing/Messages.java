package dev.redrive.testing;

import dev.redrive.core.consumer.IncomingMessage;
import java.util.Map;
import java.util.UUID;

/** Builds incoming messages for core tests. */
public final class Messages {
    private Messages() {}

    public static IncomingMessage message(String body) {
        return message(body, 1, null);
    }

    public static IncomingMessage message(String body, int receiveCount, String group) {
        String id = UUID.randomUUID().toString();
        return new IncomingMessage(
                id, "rh-" + id, body, Map.of(), receiveCount, "arn:aws:sqs:us-east-1:1:orders", group);
    }
}
