package dev.redrive.infra;

import dev.redrive.cdk.consumer.ClaimTtl;
import dev.redrive.cdk.consumer.ClaimTtlWiring;
import dev.redrive.cdk.consumer.ConsumerPlatform;
import dev.redrive.cdk.consumer.IdempotentConsumer;
import dev.redrive.cdk.consumer.RetryWindow;
import dev.redrive.cdk.function.FunctionArtifact;
import dev.redrive.cdk.function.FunctionFactory;
import dev.redrive.cdk.monitoring.MonitoredFunction;
import dev.redrive.cdk.monitoring.MonitoredQueue;
import dev.redrive.cdk.monitoring.MonitoredTable;
import dev.redrive.cdk.monitoring.Monitoring;
import dev.redrive.cdk.monitoring.MonitoringProps;
import dev.redrive.cdk.storage.Buckets;
import dev.redrive.cdk.storage.Tables;
import dev.redrive.cdk.sweeper.DlqSweeper;
import dev.redrive.cdk.sweeper.SweeperProps;
import dev.redrive.cdk.sweeper.SweptConsumer;
import dev.redrive.checkout.CheckoutNames;
import dev.redrive.infra.checkout.CheckoutConsumers;
import dev.redrive.infra.checkout.CheckoutProducer;
import dev.redrive.infra.checkout.CheckoutRoutes;
import dev.redrive.infra.monitoring.ProducerMonitoring;
import java.util.List;
import java.util.Optional;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.dynamodb.CfnTable;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.iam.AccountPrincipal;
import software.amazon.awscdk.services.iam.ArnPrincipal;
import software.amazon.awscdk.services.kms.Alias;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.s3.Bucket;
import software.constructs.Construct;

/**
 * The {@code Redrive} stack: the customer-managed key, tables and buckets, the checkout example's idempotent
 * consumers, the scheduled dead-letter sweeper, and alarms with a dashboard. Environment-agnostic: account and
 * region come from the deployment.
 */
public final class RedriveStack extends Stack {

    /** How the checkout's functions artifact is built, from the repository root. */
    static final FunctionArtifact.BuildHint CHECKOUT_BUILD = new FunctionArtifact.BuildHint(
            "./mvnw -B -ntp package -pl examples/checkout/functions -am from the repository root (it writes "
                    + "examples/checkout/functions/target/function.zip)",
            "./mvnw -B -ntp package -pl examples/checkout/functions -am -Pnative",
            "examples/checkout/infra/README.md: a Mandrel container build on a machine of that architecture");

    /** The id of the email outbox bucket's lifecycle rule ({@code emailRetentionDays}). */
    public static final String EMAIL_EXPIRY_RULE = "emails-expire";

    /** The stack's construct id and CloudFormation name. */
    public static final String NAME = "Redrive";

    private final Tables tables;
    private final Buckets buckets;
    private final Table revenue;
    private final Bucket emailOutbox;
    private final CheckoutConsumers checkout;
    private final DlqSweeper sweeper;
    private final Monitoring monitoring;
    private final Optional<CheckoutProducer> producer;
    private final FunctionArtifact artifact;

    public RedriveStack(Construct scope, String id, StackProps props, RedriveSettings settings) {
        super(scope, id, props);
        String prefix = settings.prefix();
        // Kept when the stack goes (the kept tables and buckets stay readable), not when its create rolls back. The
        // alias is a name: it goes with the stack, so the next stack of this prefix can take it.
        Key key = Key.Builder.create(this, "DataKey")
                .description("Redrive: encrypts queues, tables, buckets and the alarm topic (" + prefix + ")")
                .enableKeyRotation(true)
                .removalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE)
                .build();
        Alias.Builder.create(this, "DataKeyAlias")
                .aliasName("alias/" + prefix + "-data")
                .targetKey(key)
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        this.tables = Tables.create(this, key);
        this.buckets = Buckets.create(this, key, settings.archiveExpiryDays());
        // The example's own data, by the platform's rules: the revenue counters and the mail provider's stand-in.
        Table revenue = Tables.table(this, "RevenueTable", key, false).build();
        this.emailOutbox = Buckets.bucket(this, "EmailOutboxBucket", key).build();
        this.revenue = revenue;
        this.artifact = FunctionArtifact.resolve(
                settings.functionsAsset(),
                settings.placeholderDirectory(),
                settings.runtime(),
                settings.architecture(),
                CHECKOUT_BUILD);
        if (artifact.isPlaceholder()) {
            placeholderAsset(settings);
        }
        retryWindow(settings);
        FunctionFactory functions = new FunctionFactory(artifact, settings.architecture());
        ConsumerPlatform platform = new ConsumerPlatform(prefix, key, tables.claims(), functions);
        this.checkout = CheckoutConsumers.create(
                this,
                platform,
                settings.runtime(),
                settings.consumers(),
                settings.consumerScaling(),
                emailOutbox,
                revenue,
                tables.control(),
                settings.breakers());
        this.sweeper = new DlqSweeper(
                this,
                "Sweeper",
                new SweeperProps(
                        prefix,
                        settings.runtime(),
                        functions,
                        key,
                        tables,
                        buckets.archive(),
                        checkout.all().stream()
                                .map(c -> new SweptConsumer(c, CheckoutRoutes.route(c)))
                                .toList(),
                        settings.quarantineRetention(),
                        settings.sweepRate(),
                        settings.replayPace(),
                        java.time.Duration.ofDays(
                                settings.protection().tombstoneExpiryDays().orElse(settings.archiveExpiryDays()))));
        ClaimTtl claimTtl = claimTtl(settings);
        expireEmails(settings, claimTtl);
        if (settings.checkoutProducer() && settings.paymentProviderUrl().isEmpty()) {
            throw new IllegalArgumentException("the checkout needs a payment provider: without -c "
                    + "paymentProviderUrl=https://<provider>/ every POST /orders would answer 503 and hold its stock. "
                    + "Give its base URL, or deploy the platform without the checkout's producer (no Function URL, "
                    + "orders table, relay, outbox sweep or reconciliation) with -c checkoutProducer=false");
        }
        this.producer = settings.checkoutProducer()
                ? Optional.of(new CheckoutProducer(
                        this,
                        "CheckoutProducer",
                        prefix,
                        settings.runtime(),
                        functions,
                        key,
                        checkout.all(),
                        settings.paymentProviderUrl(),
                        settings.sweepRate(),
                        settings.checkoutReservedConcurrency(),
                        settings.orderIndexShards(),
                        settings.orderRetention()))
                : Optional.empty();
        producer.ifPresent(p -> settings.protection()
                .checkoutInvokers()
                .forEach(invoker -> p.grantInvokeUrl(
                        invoker.startsWith("arn:") ? new ArnPrincipal(invoker) : new AccountPrincipal(invoker))));
        protectTables(settings.protection().deletionProtection());
        this.monitoring = monitoring(prefix, key, settings);
        outputs();
    }

    /**
     * Refuses functions without code unless the placeholder was asked for ({@code -c placeholderAsset=true}, the build's
     * own synth and tests), then only warns: a deploy would succeed and every invocation fail.
     */
    private void placeholderAsset(RedriveSettings settings) {
        if (!settings.placeholderAsset()) {
            throw new IllegalArgumentException("no functions artifact: pass -c functionsAsset=<function.zip> (build it "
                    + "with " + CHECKOUT_BUILD.jvm() + "), or -c placeholderAsset=true to synthesize functions that "
                    + "fail every invocation (a template to read or lint, never to deploy)");
        }
        Annotations.of(this)
                .addWarningV2(
                        "redrive:placeholderAsset",
                        "No functions artifact (-c functionsAsset not given, -c placeholderAsset=true): the functions "
                                + "get a placeholder that fails every invocation. Deploy with "
                                + "-c functionsAsset=<function.zip>.");
    }

    /** Refuses a retry window that dead-letters short outages, or only warns on a demo stack. */
    private void retryWindow(RedriveSettings settings) {
        List<String> problems = RetryWindow.problems(settings.consumers());
        if (problems.isEmpty()) {
            return;
        }
        if (!settings.allowShortRetries()) {
            throw new IllegalArgumentException(String.join("; ", problems) + " (this stack's context: -c "
                    + "maxReceiveCount, -c backoffBase, -c backoffMaxDelay, -c minimumRetryWindow; or pass "
                    + "-c allowShortRetries=true for a demo stack)");
        }
        for (String problem : problems) {
            Annotations.of(this).addWarningV2("redrive:shortRetries", "allowShortRetries: " + problem);
        }
    }

    /**
     * Tells every function that claims or looks claims up how long claims count, and what that must cover (they
     * check it again at start).
     */
    private ClaimTtl claimTtl(RedriveSettings settings) {
        ClaimTtl ttl = ClaimTtl.derive(checkout.all(), settings.quarantineRetention(), settings.claimTtl());
        ClaimTtlWiring.apply(ttl, buckets, checkout.all(), sweeper, settings.claimCheckCleanup());
        return ttl;
    }

    /**
     * Emails expire from the email outbox after {@code emailRetentionDays}, which must cover the claim TTL: the email
     * consumer reads an email back to tell a redelivery's write from another's, for as long as a copy can come back.
     */
    private void expireEmails(RedriveSettings settings, ClaimTtl ttl) {
        int days = settings.protection().emailRetentionDays();
        long claimDays = (ttl.ttl().toSeconds() + 86_399) / 86_400;
        if (days < claimDays) {
            throw new IllegalArgumentException("-c emailRetentionDays=" + days + " is shorter than the claim TTL ("
                    + claimDays + " days): a message redelivered or replayed after its email expired would send it "
                    + "again; use at least " + claimDays);
        }
        Buckets.expireAfter(emailOutbox, EMAIL_EXPIRY_RULE, days);
    }

    /** DynamoDB deletion protection on every table of the stack, the platform's and the example's, as set. */
    private void protectTables(boolean on) {
        getNode().findAll().stream()
                .filter(CfnTable.class::isInstance)
                .map(CfnTable.class::cast)
                .forEach(table -> table.setDeletionProtectionEnabled(on));
    }

    /**
     * The platform's alarms and dashboard of the consumers, their breakers and the sweeper; with the producer, its
     * failure records and its own alarms and dashboard row ({@link ProducerMonitoring}).
     */
    private Monitoring monitoring(String prefix, Key key, RedriveSettings settings) {
        MonitoringProps.Builder props = MonitoringProps.builder(prefix, key, sweeper)
                .consumers(checkout.all())
                .tables(tables)
                .table(new MonitoredTable("revenue", revenue))
                .thresholds(settings.alarms())
                .notifications(settings.alarmNotifications())
                .runbook(settings.runbook());
        checkout.breakerDependencies().forEach(props::breaker);
        producer.ifPresent(p -> {
            props.table(new MonitoredTable(
                    "orders",
                    p.orders(),
                    List.of(CheckoutProducer.UNPUBLISHED_INDEX, CheckoutProducer.OPEN_ATTEMPT_INDEX)));
            props.function(new MonitoredFunction(CheckoutNames.CHECKOUT, p.checkout()));
            props.function(new MonitoredFunction(CheckoutNames.OUTBOX_RELAY, p.relay()));
            props.function(new MonitoredFunction(CheckoutNames.OUTBOX_SWEEPER, p.outboxSweeper()));
            props.function(new MonitoredFunction(CheckoutNames.CHECKOUT_RECONCILIATION, p.reconciliation()));
            props.queue(MonitoredQueue.failureRecord(
                    p.relayFailuresName(),
                    p.relayFailures(),
                    "The outbox relay gave up on a batch of the orders table's stream after its retries: those"
                            + " OrderPlaced events were not published by the relay (the outbox republishes what"
                            + " stays unpublished)"));
            props.queue(MonitoredQueue.failureRecord(
                    p.outboxScheduleDeadLetterQueueName(),
                    p.outboxSchedule().deadLetterQueue(),
                    "An outbox sweep run failed, went stale or could not be invoked: unpublished OrderPlaced events"
                            + " wait for the next run"));
            props.queue(MonitoredQueue.failureRecord(
                    p.reconciliationScheduleDeadLetterQueueName(),
                    p.reconciliationSchedule().deadLetterQueue(),
                    "A checkout reconciliation run failed, went stale or could not be invoked: abandoned checkouts"
                            + " keep their authorizations and held stock until the next run"));
        });
        Monitoring monitoring = new Monitoring(this, "Monitoring", props.build());
        producer.ifPresent(p -> ProducerMonitoring.addTo(monitoring, p, settings.producerAlarms()));
        return monitoring;
    }

    private void outputs() {
        for (IdempotentConsumer c : checkout.all()) {
            CfnOutput.Builder.create(this, c.getNode().getId() + "QueueUrl")
                    .value(c.sourceQueue().getQueueUrl())
                    .description("Send " + c.name() + "'s events here")
                    .build();
        }
        // The table names are generated: the CLI and operators read them here (REDRIVE_SWEEPER_QUARANTINE_TABLE, ...).
        CfnOutput.Builder.create(this, "QuarantineTableName")
                .value(tables.quarantine().getTableName())
                .description("REDRIVE_SWEEPER_QUARANTINE_TABLE for the redrive CLI")
                .build();
        CfnOutput.Builder.create(this, "ControlTableName")
                .value(tables.control().getTableName())
                .description("REDRIVE_SWEEPER_CONTROL_TABLE for the redrive CLI")
                .build();
        CfnOutput.Builder.create(this, "ClaimsTableName")
                .value(tables.claims().getTableName())
                .description("REDRIVE_CLAIMS_TABLE for the redrive CLI")
                .build();
        CfnOutput.Builder.create(this, "RevenueTableName")
                .value(revenue.getTableName())
                .description("The revenue counters revenue-analytics writes with its claims")
                .build();
        CfnOutput.Builder.create(this, "ArchiveBucketName")
                .value(buckets.archive().getBucketName())
                .build();
        CfnOutput.Builder.create(this, "ClaimCheckBucketName")
                .value(buckets.claimChecks().getBucketName())
                .description("REDRIVE_CLAIM_CHECKS_BUCKET for the redrive CLI, and the bucket producers using the SQS "
                        + "Extended Client Library put payloads over 1 MiB in")
                .build();
        producer.ifPresent(p -> {
            CfnOutput.Builder.create(this, "CheckoutUrl")
                    .value(p.url().getUrl())
                    .description("POST <url>orders with an Idempotency-Key header, signed with SigV4 by a principal "
                            + "granted lambda:InvokeFunctionUrl and lambda:InvokeFunction (-c checkoutInvokers)")
                    .build();
            CfnOutput.Builder.create(this, "OrdersTableName")
                    .value(p.orders().getTableName())
                    .description("The checkout's orders table: attempts, stock (sku#<sku>/stock), orders, outbox")
                    .build();
        });
        CfnOutput.Builder.create(this, "AlarmTopicArn")
                .value(monitoring.alarmTopic().getTopicArn())
                .description("Subscribe to get Redrive's alarms")
                .build();
    }

    public Tables tables() {
        return tables;
    }

    public Buckets buckets() {
        return buckets;
    }

    public CheckoutConsumers checkout() {
        return checkout;
    }

    public DlqSweeper sweeper() {
        return sweeper;
    }

    public Monitoring monitoring() {
        return monitoring;
    }

    /** The functions artifact (or placeholder) the functions run. */
    public FunctionArtifact artifact() {
        return artifact;
    }
}
