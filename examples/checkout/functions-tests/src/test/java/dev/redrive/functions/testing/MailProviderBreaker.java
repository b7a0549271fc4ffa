package dev.redrive.functions.testing;

import dev.redrive.aws.ledger.DynamoDbBreakerStore;
import dev.redrive.checkout.ConfirmationEmailConsumer;
import dev.redrive.core.breaker.BreakerState;
import dev.redrive.core.breaker.BreakerTransition;
import java.time.Duration;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The mail provider's shared breaker in a test's control table, opened as a sandbox would open it. */
public final class MailProviderBreaker {

    private MailProviderBreaker() {}

    /** Opens the never-opened breaker at {@code now} for a minute (token 1), as every sandbox then reads it. */
    public static void openFor1Minute(DynamoDbClient dynamoDb, String table, Instant now) {
        BreakerState open =
                new BreakerState(BreakerState.Status.OPEN, 1, now, Duration.ofMinutes(1), now.plusSeconds(60), null);
        new DynamoDbBreakerStore(dynamoDb, table)
                .transition(
                        ConfirmationEmailConsumer.DEPENDENCY,
                        0,
                        open,
                        BreakerTransition.of(BreakerState.Status.CLOSED, open, now, "mail down"));
    }
}
