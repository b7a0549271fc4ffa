package com.example.quickstart;

import dev.redrive.lambda.JsonMessages;
import dev.redrive.lambda.Redrive;
import dev.redrive.lambda.SqsConsumerHandler;

/**
 * Posts a receipt for every order placed, once per order, to the webhook at {@code RECEIPTS_WEBHOOK_URL}. Handler:
 * {@code com.example.quickstart.Receipts::handleRequest}.
 */
public class Receipts extends SqsConsumerHandler {
    private static final ReceiptsWebhook WEBHOOK = new ReceiptsWebhook(System.getenv("RECEIPTS_WEBHOOK_URL"));

    public Receipts() {
        super(Redrive.fromEnvironment()
                .guardedBy(ReceiptsWebhook.DEPENDENCY) // its circuit breaker, shared by every sandbox
                .externalEffect("receipts", JsonMessages.keyAt("/orderId"), WEBHOOK::post));
    }
}
