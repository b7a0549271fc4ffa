package dev.redrive.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.BatchProcessor;
import dev.redrive.core.consumer.EffectBreakers;
import dev.redrive.core.consumer.IdempotentConsumer;
import dev.redrive.lambda.JsonMessages;
import dev.redrive.lambda.RedriveSettings;
import dev.redrive.lambda.SqsConsumerHandler;
import dev.redrive.lambda.internal.ReaderConsumers;
import dev.redrive.quarkus.ConsumerGuard;
import dev.redrive.quarkus.RedriveConfig;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.stream.StreamSupport;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An application with nothing but the extension and one handler: its configuration mapping, settings, batch machinery,
 * a guarded consumer's breaker and the breaker variables' source come from the extension alone.
 */
class RedriveExtensionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot((JavaArchive jar) -> jar.addClasses(Receipts.class, ReceiptsHandler.class))
            .overrideConfigKey("quarkus.lambda.handler", "receipts")
            .overrideConfigKey("quarkus.dynamodb.aws.region", "us-east-1")
            .overrideConfigKey("quarkus.dynamodb.aws.credentials.type", "static")
            .overrideConfigKey("quarkus.dynamodb.aws.credentials.static-provider.access-key-id", "test")
            .overrideConfigKey("quarkus.dynamodb.aws.credentials.static-provider.secret-access-key", "test")
            .overrideConfigKey("quarkus.sqs.aws.region", "us-east-1")
            .overrideConfigKey("quarkus.sqs.aws.credentials.type", "static")
            .overrideConfigKey("quarkus.sqs.aws.credentials.static-provider.access-key-id", "test")
            .overrideConfigKey("quarkus.sqs.aws.credentials.static-provider.secret-access-key", "test")
            .overrideConfigKey("quarkus.s3.aws.region", "us-east-1")
            .overrideConfigKey("quarkus.s3.aws.credentials.type", "static")
            .overrideConfigKey("quarkus.s3.aws.credentials.static-provider.access-key-id", "test")
            .overrideConfigKey("quarkus.s3.aws.credentials.static-provider.secret-access-key", "test")
            .overrideConfigKey("quarkus.dynamodb.sync-client.type", "url")
            .overrideConfigKey("quarkus.sqs.sync-client.type", "url")
            .overrideConfigKey("quarkus.s3.sync-client.type", "url")
            .overrideConfigKey("quarkus.dynamodb.devservices.enabled", "false")
            .overrideConfigKey("quarkus.sqs.devservices.enabled", "false")
            .overrideConfigKey("quarkus.s3.devservices.enabled", "false")
            .overrideConfigKey("redrive.claims.table", "team-claims")
            .overrideConfigKey("redrive.backoff.base", "3s")
            .overrideConfigKey("redrive.breakers.mail-provider.consecutive-failures", "2");

    @Inject
    RedriveConfig config;

    @Inject
    RedriveSettings settings;

    @Inject
    BatchProcessor batches;

    @Inject
    EffectBreakers breakers;

    @Inject
    @Named("receipts")
    ReceiptsHandler handler;

    @Test
    void theMappingAndTheSettingsReadTheRedriveProperties() {
        assertThat(config.claims().table()).isEqualTo("team-claims");
        assertThat(settings.claims().table()).isEqualTo("team-claims");
        assertThat(settings.backoff().base()).isEqualTo(Duration.ofSeconds(3));
        assertThat(settings.breakers().of("mail-provider").policy().consecutiveFailures())
                .isEqualTo(2);
    }

    @Test
    void aGuardedConsumerHasItsBreakerAndAnUnguardedOneHasNone() {
        assertThat(breakers.guardOf("receipts")).contains("mail-provider");
        assertThat(breakers.guardOf("revenue")).isEmpty();
    }

    @Test
    void theHandlerRunsItsConsumerOnTheExtensionsMachinery() {
        assertThat(handler).isInstanceOf(SqsConsumerHandler.class);
        assertThat(handler.consumer().name()).isEqualTo("receipts");
        assertThat(batches).isNotNull();
    }

    @Test
    void theBreakerVariablesSourceIsRegistered() {
        assertThat(StreamSupport.stream(
                                ConfigProvider.getConfig().getConfigSources().spliterator(), false)
                        .map(s -> s.getName()))
                .contains("redrive-breaker-variables");
    }

    /** A team's consumer's guard, as an application declares it. */
    @ApplicationScoped
    public static class Receipts {

        @Produces
        @Singleton
        ConsumerGuard mailProvider() {
            return new ConsumerGuard("receipts", "mail-provider");
        }
    }

    /** Lambda handler {@code receipts}. */
    @Named("receipts")
    @Singleton
    public static class ReceiptsHandler extends dev.redrive.quarkus.IdempotentSqsHandler {
        ReceiptsHandler(BatchProcessor batches, RedriveSettings settings, dev.redrive.lambda.ConsumerMetrics metrics) {
            super(receipts(), batches, settings, metrics);
        }

        static IdempotentConsumer<?> receipts() {
            return new ReaderConsumers.External<>(
                    "receipts", JsonMessages.keyAt("/orderId"), (order, context) -> "sent");
        }
    }
}
