package com.example.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse.BatchItemFailure;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.redrive.aws.claims.DynamoDbClaimStore;
import dev.redrive.aws.queues.DeadLetterMetadata;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.lambda.Redrive;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.localaws.LocalResources.QueuePair;
import dev.redrive.testing.localaws.SqsEventSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Revenue on local AWS (SQS on ElasticMQ in this JVM, DynamoDB on moto's server, a child process: see redrive-testing's
 * {@code @LocalAwsTest}): real queues and tables, the SQS event Lambda would build from them, the handler called as
 * Lambda calls it. Copy it with the quickstart and change the orders to your messages.
 */
@LocalAwsTest(resetBeforeEach = true) // every queue and table is gone before each test: each test creates its own
class RevenueOnLocalAwsTest {

    private static final String CLAIMS_TABLE = "claims";
    private static final String REVENUE_TABLE = "revenue"; // Revenue reads REVENUE_TABLE: the pom's surefire sets it

    /** Called directly, the handler gives its batch 60 s; under Lambda it reads the invocation's deadline. */
    private static final Context NO_LAMBDA_CONTEXT = null;

    private final LocalAws aws = LocalAws.shared();
    private QueuePair orders;
    private Revenue revenue;

    @BeforeEach
    void resources() {
        LocalResources.createTable(aws.dynamoDb(), CLAIMS_TABLE);
        LocalResources.createTable(aws.dynamoDb(), REVENUE_TABLE);
        orders = LocalResources.createQueuePair(aws, "orders", 3, 30); // a queue, its dead-letter queue, maxReceiveCount 3
        RedriveSettings settings = RedriveSettings.fromEnvironment(Map.of("REDRIVE_CLAIMS_TABLE", CLAIMS_TABLE));
        revenue = new Revenue(Redrive.with(settings, aws.dynamoDb(), aws.sqs(), aws.s3()));
    }

    @Test
    void anOrderDeliveredTwiceIsCountedOnce() {
        String order = "{\"orderId\": \"o-1\", \"customer\": \"c-1\", \"amountCents\": 1250}";

        List<String> messageIds = new ArrayList<>();
        for (int delivery = 1; delivery <= 2; delivery++) { // a redelivery: the same body, a new message id
            send(order);
            SQSEvent event = SqsEventSource.receive(aws.sqs(), orders, 1); // as Lambda's event source builds it
            messageIds.add(event.getRecords().get(0).getMessageId());
            SQSBatchResponse response = revenue.handleRequest(event, NO_LAMBDA_CONTEXT);
            assertThat(response.getBatchItemFailures()).as("delivery %d acknowledged", delivery).isEmpty();
        }

        assertThat(messageIds).doesNotHaveDuplicates();

        assertThat(revenueOf("c-1")).as("counted once").isEqualTo("1250");
        assertThat(new DynamoDbClaimStore(aws.dynamoDb(), CLAIMS_TABLE)
                        .find(new IdempotencyKey("revenue", "o-1"), Instant.now())
                        .orElseThrow()
                        .status())
                .isEqualTo(ClaimStatus.COMPLETED);
    }

    @Test
    void aMalformedOrderIsDeadLetteredAsSchemaWithoutBlockingTheBatch() {
        send("{\"orderId\": \"o-2\", \"customer\": \"c-2\", \"amountCents\": 700}");
        send("{\"orderId\": \"o-bad\", \"customer\": \"c-2\", \"amountCents\": \"lots\"}");

        SQSEvent both = SqsEventSource.receive(aws.sqs(), orders, 2);
        SQSBatchResponse response = revenue.handleRequest(both, NO_LAMBDA_CONTEXT);

        assertThat(response.getBatchItemFailures())
                .extracting(BatchItemFailure::getItemIdentifier)
                .as("partial batch response: nothing comes back, the bad order went to the dead-letter queue at once")
                .isEmpty();
        assertThat(revenueOf("c-2")).as("the good order of the same batch counted").isEqualTo("700");
        List<Message> dead = aws.sqs()
                .receiveMessage(b -> b.queueUrl(orders.dlqUrl()).waitTimeSeconds(1).messageAttributeNames("All"))
                .messages();
        assertThat(dead).extracting(Message::body).singleElement().asString().contains("o-bad");
        DeadLetterMetadata why = DeadLetterMetadata.parse(
                        dead.get(0).messageAttributes().get(DeadLetterMetadata.ATTRIBUTE).stringValue())
                .orElseThrow();
        assertThat(why.failureClass()).isEqualTo("SCHEMA");
        assertThat(why.errorType()).isEqualTo("InvalidOrder");
    }

    private String revenueOf(String customer) {
        return aws.dynamoDb()
                .getItem(b -> b.tableName(REVENUE_TABLE)
                        .key(Map.of("pk", AttributeValue.fromS("revenue#" + customer)))
                        .consistentRead(true))
                .item()
                .get("totalCents")
                .n();
    }

    private void send(String body) {
        aws.sqs().sendMessage(b -> b.queueUrl(orders.url()).messageBody(body));
    }
}
