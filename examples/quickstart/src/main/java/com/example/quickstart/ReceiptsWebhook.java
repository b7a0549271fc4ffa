package com.example.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.core.consumer.EffectContext;
import dev.redrive.core.failure.HttpStatuses;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Objects;

/**
 * The receipts webhook, called by {@link Receipts}. The webhook gets the claim's key as {@code Idempotency-Key}, so a
 * retry after a lost answer is recognised downstream, and the call times out inside the effect's deadline. An answer
 * other than 2xx throws Redrive's own failure types ({@code HttpStatuses}): 408, 429 and 5xx are TRANSIENT (retried
 * with backoff, counted by the circuit breaker), any other is PERMANENT (dead-lettered at once, with the status as its
 * reason). A timeout or a connection failure is an {@link IOException}, which Redrive classifies TRANSIENT; so is a
 * deadline already passed ({@code EffectContext.callTimeout}).
 */
final class ReceiptsWebhook {
    static final String DEPENDENCY = "receipts-webhook";
    // The connect timeout of Redrive's effect clients (REDRIVE_EFFECTS_CONNECT_TIMEOUT's default); no redirects.
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final URI url;

    ReceiptsWebhook(String url) {
        this.url = URI.create(Objects.requireNonNull(url, "set RECEIPTS_WEBHOOK_URL to the receipts webhook's URL"));
    }

    String post(JsonNode order, EffectContext ctx) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(ctx.callTimeout("the receipt", DEPENDENCY)) // the time left; none left is a TRANSIENT failure
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", ctx.key().value())
                .POST(BodyPublishers.ofString(order.toString()))
                .build();
        int status = HTTP.send(request, BodyHandlers.discarding()).statusCode();
        HttpStatuses.check(status, "the receipts webhook", DEPENDENCY); // 408, 429, 5xx TRANSIENT; other non-2xx PERMANENT
        return "HTTP " + status;
    }
}
