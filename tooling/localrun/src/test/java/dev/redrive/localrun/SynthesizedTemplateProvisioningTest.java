package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localstack.provision.LocalBucket;
import dev.redrive.localstack.provision.LocalEventSourceMapping;
import dev.redrive.localstack.provision.LocalFunction;
import dev.redrive.localstack.provision.LocalQueue;
import dev.redrive.localstack.provision.LocalStreamMapping;
import dev.redrive.localstack.provision.LocalTable;
import dev.redrive.localstack.provision.ProvisionedResources;
import dev.redrive.localstack.provision.TemplateProvisioner;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Provisions the demo stack's synthesized template (examples/checkout/infra/target/cdk.out) on local AWS, as the local
 * run does. It lives here, beside the local run that reads the same template, so that local AWS (tooling/localstack)
 * builds without waiting for the infra module's synth.
 *
 * <p>The template is provisioned once for the class, on emptied local AWS ({@link #provisioned}): every test reads
 * what it made, and the two that send messages use queues of their own (one consumer's each). Only {@link
 * #provisioningTwiceGivesTheSameResourcesWithAndWithoutAReset} provisions again, and resets, and leaves what it made for
 * the tests after it.
 */
@LocalAwsTest
class SynthesizedTemplateProvisioningTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> CONSUMERS = List.of("confirmation-email", "revenue-analytics");

    /** What this class's first test provisioned, on local AWS emptied first (null until then). */
    private static ProvisionedResources provisioned;

    private static ProvisionedResources provision(LocalAws aws) {
        if (provisioned == null) {
            aws.reset(); // another class of this test JVM may have left queues, tables or buckets
            provisioned = provisionAgain(aws);
        }
        return provisioned;
    }

    private static ProvisionedResources provisionAgain(LocalAws aws) {
        return new TemplateProvisioner(aws).provision(LocalRunFixture.demoTemplate());
    }

    /** The table made as {@code constructId} ({@code ClaimsTable}): the template leaves table names to the stack. */
    private static LocalTable table(ProvisionedResources resources, String constructId) {
        return resources.tables().entrySet().stream()
                .filter(e -> e.getKey().startsWith(constructId))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no table " + constructId));
    }

    private static Map<QueueAttributeName, String> attributes(LocalAws aws, LocalQueue queue) {
        return aws.sqs()
                .getQueueAttributes(b -> b.queueUrl(queue.url()).attributeNames(QueueAttributeName.ALL))
                .attributes();
    }

    @Test
    void createsEveryQueueWithItsRedrivePolicyVisibilityAndRetention(LocalAws aws) throws Exception {
        ProvisionedResources resources = provision(aws);

        assertThat(resources.queues().values())
                .extracting(LocalQueue::name)
                .containsExactlyInAnyOrder(
                        "redrive-confirmation-email",
                        "redrive-confirmation-email-dlq",
                        "redrive-revenue-analytics",
                        "redrive-revenue-analytics-dlq",
                        "redrive-sweeper-schedule-dlq",
                        "redrive-outbox-relay-failures",
                        "redrive-outbox-schedule-dlq",
                        "redrive-reconciliation-schedule-dlq");
        assertThat(aws.sqs().listQueues().queueUrls()).hasSize(8);
        for (String consumer : CONSUMERS) {
            LocalQueue source = resources.queueNamed("redrive-" + consumer).orElseThrow();
            LocalQueue dlq =
                    resources.queueNamed("redrive-" + consumer + "-dlq").orElseThrow();
            Map<QueueAttributeName, String> attributes = attributes(aws, source);
            JsonNode redrive = JSON.readTree(attributes.get(QueueAttributeName.REDRIVE_POLICY));
            assertThat(redrive.path("deadLetterTargetArn").asText()).isEqualTo(dlq.arn());
            assertThat(redrive.path("maxReceiveCount").asInt()).isEqualTo(10);
            assertThat(attributes).containsEntry(QueueAttributeName.VISIBILITY_TIMEOUT, "180");
            // ElasticMQ accepts but does not report retention; SQS and LocalStack do.
            if (attributes.containsKey(QueueAttributeName.MESSAGE_RETENTION_PERIOD)) {
                assertThat(attributes).containsEntry(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "345600");
                assertThat(attributes(aws, dlq)).containsEntry(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "1209600");
            }
        }
    }

    @Test
    void theConsumersQueuesTakeAMessageNearSqsOneMebibyte(LocalAws aws) {
        ProvisionedResources resources = provision(aws);
        LocalQueue source = resources.queueNamed("redrive-confirmation-email").orElseThrow();
        String body = "x".repeat(1_040_000); // over the old 256 KiB, under 1 MiB with room for attributes

        aws.sqs().sendMessage(b -> b.queueUrl(source.url()).messageBody(body));

        List<Message> received = aws.sqs()
                .receiveMessage(b -> b.queueUrl(source.url()).waitTimeSeconds(2))
                .messages();
        assertThat(received)
                .singleElement()
                .satisfies(m -> assertThat(m.body().length()).isEqualTo(body.length()));
    }

    @Test
    void aMessageNeverDeletedLandsInTheDeadLetterQueueAfterTenReceives(LocalAws aws) {
        ProvisionedResources resources = provision(aws);
        LocalQueue source = resources.queueNamed("redrive-revenue-analytics").orElseThrow();
        LocalQueue dlq = resources.queueNamed("redrive-revenue-analytics-dlq").orElseThrow();
        aws.sqs().sendMessage(b -> b.queueUrl(source.url()).messageBody("{\"poison\":true}"));

        int[] receives = {0};
        // Polled every 10 ms, not Awaitility's default 100 ms: eleven polls move the message, nothing else is awaited
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    // Visibility 0 for this receive: the message is visible again at once, as after a crash.
                    receives[0] += aws.sqs()
                            .receiveMessage(b -> b.queueUrl(source.url())
                                    .visibilityTimeout(0)
                                    .waitTimeSeconds(0))
                            .messages()
                            .size();
                    return !aws.sqs()
                            .receiveMessage(b -> b.queueUrl(dlq.url()).waitTimeSeconds(0))
                            .messages()
                            .isEmpty();
                });

        assertThat(receives[0]).isEqualTo(10);
        List<Message> left = aws.sqs()
                .receiveMessage(b -> b.queueUrl(source.url()).waitTimeSeconds(0))
                .messages();
        assertThat(left).isEmpty();
    }

    @Test
    void createsTheTablesWithTheirKeysIndexesAndTtl(LocalAws aws) {
        ProvisionedResources resources = provision(aws);

        assertThat(resources.tables().values())
                .extracting(LocalTable::name)
                .containsExactlyInAnyOrder(
                        table(resources, "ClaimsTable").name(),
                        table(resources, "RevenueTable").name(),
                        table(resources, "QuarantineTable").name(),
                        table(resources, "ControlTable").name(),
                        table(resources, "CheckoutProducerOrdersTable").name())
                .allSatisfy(name -> assertThat(name).startsWith("redrive-"));
        String claimsTable = table(resources, "ClaimsTable").name();
        TableDescription claims =
                aws.dynamoDb().describeTable(b -> b.tableName(claimsTable)).table();
        assertThat(claims.keySchema())
                .extracting(KeySchemaElement::attributeName)
                .containsExactly("pk");
        assertThat(aws.dynamoDb()
                        .describeTimeToLive(b -> b.tableName(claimsTable))
                        .timeToLiveDescription())
                .satisfies(ttl -> {
                    assertThat(ttl.attributeName()).isEqualTo("expiresAt");
                    assertThat(ttl.timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
                });
        String quarantineTable = table(resources, "QuarantineTable").name();
        TableDescription quarantine =
                aws.dynamoDb().describeTable(b -> b.tableName(quarantineTable)).table();
        assertThat(quarantine.keySchema())
                .extracting(KeySchemaElement::attributeName)
                .containsExactly("pk", "sk");
        assertThat(quarantine.globalSecondaryIndexes()).hasSize(2).allSatisfy(index -> {
            assertThat(index.indexName()).isIn("byState", "byQueue");
            assertThat(index.keySchema())
                    .extracting(KeySchemaElement::attributeName)
                    .containsExactly(index.indexName().equals("byState") ? "state" : "sourceQueue", "arrivedAt");
            assertThat(index.projection().projectionTypeAsString()).isEqualTo("ALL");
        });
        assertThat(resources.tableNamed(quarantineTable).orElseThrow().arn()).isEqualTo(quarantine.tableArn());
    }

    @Test
    void createsTheBucketsVersionedAndPrivate(LocalAws aws) {
        ProvisionedResources resources = provision(aws);

        assertThat(resources.buckets())
                .as("archive, claim checks, email outbox, routes document")
                .hasSize(4);
        LocalBucket claimChecks = resources.buckets().entrySet().stream()
                .filter(e -> e.getKey().startsWith("ClaimCheckBucket"))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElseThrow();
        assertThat(aws.s3()
                        .getBucketLifecycleConfiguration(b -> b.bucket(claimChecks.name()))
                        .rules())
                .as("claim-check payloads expire after the claim TTL")
                .singleElement()
                .satisfies(rule -> assertThat(rule.expiration().days()).isPositive());
        LocalBucket archive = resources.buckets().entrySet().stream()
                .filter(e -> e.getKey().startsWith("ArchiveBucket"))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElseThrow();
        assertThat(archive.name()).startsWith("redrive-archivebucket");
        assertThat(aws.s3().getBucketVersioning(b -> b.bucket(archive.name())).status())
                .isEqualTo(BucketVersioningStatus.ENABLED);
        resources
                .buckets()
                .values()
                .forEach(bucket -> assertThat(aws.s3()
                                .getPublicAccessBlock(b -> b.bucket(bucket.name()))
                                .publicAccessBlockConfiguration()
                                .blockPublicAcls())
                        .isTrue());
    }

    @Test
    void resolvesEveryFunctionEnvironmentToTheCreatedResources(LocalAws aws) throws Exception {
        ProvisionedResources resources = provision(aws);

        assertThat(resources.functions())
                .as("2 consumers, the sweeper, the checkout producer's 4")
                .hasSize(7);
        resources
                .functions()
                .values()
                .forEach(f -> assertThat(f.environment().values())
                        .as(f.logicalId())
                        .noneMatch(v -> v.contains("\"Ref\"") || v.contains("Fn::")));
        for (String consumer : CONSUMERS) {
            LocalFunction function = resources.functionWithHandler(consumer).orElseThrow();
            assertThat(function.environment())
                    .containsEntry(
                            "REDRIVE_CLAIMS_TABLE",
                            table(resources, "ClaimsTable").name())
                    .containsEntry(
                            "REDRIVE_DEAD_LETTERS_QUEUE_URL",
                            resources
                                    .queueNamed("redrive-" + consumer + "-dlq")
                                    .orElseThrow()
                                    .url());
            assertThat(function.timeout()).isEqualTo(Duration.ofSeconds(30));
        }
        assertThat(resources
                        .functionWithHandler("revenue-analytics")
                        .orElseThrow()
                        .environment())
                .containsEntry(
                        "REDRIVE_CHECKOUT_REVENUE_TABLE",
                        table(resources, "RevenueTable").name());
        String outbox = resources
                .functionWithHandler("confirmation-email")
                .orElseThrow()
                .environment()
                .get("REDRIVE_CHECKOUT_EMAIL_OUTBOX_BUCKET");
        assertThat(resources.buckets().values()).extracting(LocalBucket::name).contains(outbox);

        LocalFunction sweeper = resources.functionWithHandler("dlq-sweeper").orElseThrow();
        assertThat(sweeper.timeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(sweeper.environment().get("REDRIVE_SWEEPER_ARCHIVE_KMS_KEY_ID"))
                .matches("arn:aws:kms:us-east-1:000000000000:key/[0-9a-f-]{36}");
        // The routes document is where the stack's BucketDeployment put it: the provisioner copied the asset.
        String location = sweeper.environment().get("REDRIVE_ROUTES");
        assertThat(location).matches("s3://[a-z0-9.-]+/routes\\.json");
        String bucket = location.substring("s3://".length(), location.indexOf('/', "s3://".length()));
        assertThat(resources.buckets().values()).extracting(LocalBucket::name).contains(bucket);
        JsonNode document = JSON.readTree(aws.s3()
                .getObjectAsBytes(b -> b.bucket(bucket).key("routes.json"))
                .asUtf8String());
        assertThat(document.path("version").asInt()).isEqualTo(1);
        JsonNode routes = document.path("routes");
        assertThat(routes).hasSize(2);
        for (JsonNode route : routes) {
            String consumer = route.path("consumer").asText();
            assertThat(resources.queueNamed(route.path("sourceQueue").asText())).isPresent();
            assertThat(route.path("sourceQueue").asText()).isEqualTo("redrive-" + consumer);
            assertThat(route.path("deadLetterQueue").asText()).isEqualTo("redrive-" + consumer + "-dlq");
            assertThat(route.path("key").path("pointer").asText()).isEqualTo("/eventId");
            assertThat(route.path("schemas").path("OrderPlaced").fieldNames())
                    .toIterable()
                    .containsExactly("1", "2");
        }
    }

    @Test
    void readsTheEventSourceMappingsAndTheSchedule(LocalAws aws) {
        ProvisionedResources resources = provision(aws);

        assertThat(resources.eventSourceMappings()).hasSize(2);
        for (String consumer : CONSUMERS) {
            LocalFunction function = resources.functionWithHandler(consumer).orElseThrow();
            LocalEventSourceMapping mapping =
                    resources.mappingsOf(function.logicalId()).get(0);
            assertThat(resources.queues().get(mapping.queueLogicalId()).name()).isEqualTo("redrive-" + consumer);
            assertThat(mapping.batchSize()).isEqualTo(10);
            assertThat(mapping.maximumBatchingWindow()).isZero();
            assertThat(mapping.maximumConcurrency()).contains(5);
            assertThat(mapping.reportsBatchItemFailures()).isTrue();
            assertThat(mapping.enabled()).isTrue();
        }
        assertThat(resources.schedules())
                .as("the sweeper's, the outbox sweep's, the reconciliation's")
                .hasSize(3);
        assertThat(resources.schedules())
                .filteredOn(s -> s.logicalId().startsWith("Sweeper"))
                .singleElement()
                .satisfies(schedule -> {
                    assertThat(schedule.expression()).isEqualTo("rate(5 minutes)");
                    assertThat(schedule.targetFunctionLogicalId())
                            .contains(resources
                                    .functionWithHandler("dlq-sweeper")
                                    .orElseThrow()
                                    .logicalId());
                    assertThat(schedule.input()).isEqualTo("{\"source\":\"redrive.schedule\"}");
                    assertThat(schedule.enabled()).isTrue();
                });
    }

    @Test
    void readsTheRelaysStreamMappingAndTheCheckoutsFunctionUrl(LocalAws aws) {
        ProvisionedResources resources = provision(aws);

        LocalFunction relay = resources.functionWithHandler("outbox-relay").orElseThrow();
        LocalTable orders = table(resources, "CheckoutProducerOrdersTable");
        assertThat(resources.streamMappings()).singleElement().satisfies(m -> {
            assertThat(m.functionLogicalId()).isEqualTo(relay.logicalId());
            assertThat(m.tableLogicalId()).isEqualTo(orders.logicalId());
            assertThat(Optional.of(m.streamArn())).isEqualTo(orders.streamArn());
            assertThat(m.batchSize()).isEqualTo(10);
            assertThat(m.bisectOnFunctionError()).isTrue();
            assertThat(m.maximumRetryAttempts()).isEqualTo(5);
            assertThat(m.reportsBatchItemFailures()).isTrue();
            assertThat(m.startingPosition()).isEqualTo("TRIM_HORIZON");
            assertThat(m.filterPatterns())
                    .containsExactly("{\"eventName\":[\"INSERT\"],\"dynamodb\":{\"Keys\":{\"sk\":{\"S\":"
                            + "[{\"prefix\":\"outbox#\"}]}}}}");
            assertThat(m.onFailureQueueLogicalId()
                            .map(q -> resources.queues().get(q).name()))
                    .contains("redrive-outbox-relay-failures");
        });
        assertThat(resources.streamMappingsOf(relay.logicalId())).hasSize(1);
        LocalFunction checkout = resources.functionWithHandler("checkout").orElseThrow();
        assertThat(resources.urlOf(checkout.logicalId())).hasValueSatisfying(u -> {
            assertThat(u.requiresSignature()).isTrue();
            assertThat(u.invokeMode()).isEqualTo("BUFFERED");
        });
        assertThat(resources.eventSourceMappings())
                .as("the SQS mappings do not include the stream's")
                .noneMatch(m -> m.functionLogicalId().equals(relay.logicalId()));
    }

    @Test
    void provisioningTwiceGivesTheSameResourcesWithAndWithoutAReset(LocalAws aws) {
        ProvisionedResources first = provision(aws);
        ProvisionedResources again = provisionAgain(aws);
        aws.reset();
        ProvisionedResources afterReset = provisionAgain(aws);
        provisioned = afterReset;

        assertThat(again).isEqualTo(first);
        assertThat(withoutStreamLabels(afterReset))
                .as("the same, but for the orders table's new stream (a new table has a new stream label)")
                .isEqualTo(withoutStreamLabels(first));
        assertThat(table(afterReset, "CheckoutProducerOrdersTable").streamArn()).isPresent();
        assertThat(aws.sqs().listQueues().queueUrls()).hasSize(8);
        assertThat(aws.dynamoDb().listTables().tableNames()).hasSize(5);
    }

    private static ProvisionedResources withoutStreamLabels(ProvisionedResources r) {
        java.util.Map<String, LocalTable> tables = new java.util.LinkedHashMap<>();
        r.tables()
                .forEach((id, t) -> tables.put(
                        id,
                        new LocalTable(
                                t.logicalId(), t.name(), t.arn(), t.streamArn().map(a -> "stream of " + t.name()))));
        java.util.List<LocalStreamMapping> streams = r.streamMappings().stream()
                .map(m -> new LocalStreamMapping(
                        m.logicalId(),
                        m.functionLogicalId(),
                        m.tableLogicalId(),
                        "stream of " + m.tableLogicalId(),
                        m.batchSize(),
                        m.maximumBatchingWindow(),
                        m.filterPatterns(),
                        m.bisectOnFunctionError(),
                        m.maximumRetryAttempts(),
                        m.onFailureQueueLogicalId(),
                        m.functionResponseTypes(),
                        m.startingPosition(),
                        m.enabled()))
                .toList();
        return new ProvisionedResources(
                r.stackName(),
                r.queues(),
                tables,
                r.buckets(),
                r.functions(),
                r.eventSourceMappings(),
                streams,
                r.functionUrls(),
                r.schedules());
    }
}
