package com.example.quickstart.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.constructs.Construct;

/**
 * What the team had before Redrive, as any team has it: a queue per consumer with its dead-letter queue, the two
 * functions (the quickstart's jar, {@code ../target/redrive-quickstart.jar}), and the revenue table. Nothing here is
 * Redrive's; {@link QuickstartStack} attaches Redrive to it.
 */
public class TeamResources extends Construct {
    /** The jar the functions run; {@code -c functionJar=<path>} points elsewhere. */
    static final String DEFAULT_JAR = "../target/redrive-quickstart.jar";

    private final Queue receiptsQueue;
    private final Queue revenueQueue;
    private final Function receipts;
    private final Function revenue;

    public TeamResources(Construct scope, String id) {
        super(scope, id);
        Object jarContext = getNode().tryGetContext("functionJar");
        Path jar = Path.of(jarContext == null ? DEFAULT_JAR : jarContext.toString());
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("the functions' jar " + jar.toAbsolutePath().normalize()
                    + " does not exist: build it with ../mvnw -f ../pom.xml package, or pass -c functionJar=<path>");
        }
        Object webhook = getNode().tryGetContext("receiptsWebhookUrl");
        Table totals = Table.Builder.create(this, "RevenueTable")
                .partitionKey(Attribute.builder().name("pk").type(AttributeType.STRING).build())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        this.receiptsQueue = queue("receipts");
        this.revenueQueue = queue("revenue");
        this.receipts = function("Receipts", "com.example.quickstart.Receipts::handleRequest", jar);
        receipts.addEnvironment(
                "RECEIPTS_WEBHOOK_URL", webhook == null ? "https://receipts.example.com/hooks/orders" : webhook.toString());
        this.revenue = function("Revenue", "com.example.quickstart.Revenue::handleRequest", jar);
        revenue.addEnvironment("REVENUE_TABLE", totals.getTableName());
        totals.grantReadWriteData(revenue);
    }

    private Queue queue(String consumer) {
        Queue deadLetters = Queue.Builder.create(this, consumer + "-dlq")
                .queueName("quickstart-" + consumer + "-dlq")
                .retentionPeriod(Duration.days(14))
                .build();
        return Queue.Builder.create(this, consumer + "-queue")
                .queueName("quickstart-" + consumer)
                .visibilityTimeout(Duration.minutes(3))
                .deadLetterQueue(DeadLetterQueue.builder()
                        .queue(deadLetters)
                        .maxReceiveCount(10)
                        .build())
                .build();
    }

    private Function function(String id, String handler, Path jar) {
        return Function.Builder.create(this, id)
                .runtime(Runtime.JAVA_21)
                .handler(handler)
                .code(Code.fromAsset(jar.toString()))
                .memorySize(1024)
                .timeout(Duration.seconds(30))
                .build();
    }

    public Queue receiptsQueue() {
        return receiptsQueue;
    }

    public Queue revenueQueue() {
        return revenueQueue;
    }

    public Function receipts() {
        return receipts;
    }

    public Function revenue() {
        return revenue;
    }
}
