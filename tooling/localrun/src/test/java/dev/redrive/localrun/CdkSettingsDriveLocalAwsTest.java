package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.localstack.provision.LocalQueue;
import dev.redrive.localstack.provision.ProvisionedResources;
import dev.redrive.localstack.provision.TemplateProvisioner;
import dev.redrive.testing.localaws.LocalAws;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The template drives local AWS: a setting changed in the CDK app (maxReceiveCount) changes what the local queues do.
 */
class CdkSettingsDriveLocalAwsTest {

    /** The settings under test: one stack per {@code maxReceiveCount}, built by {@link SynthesizedStacks} too. */
    static final List<Integer> MAX_RECEIVES = List.of(2, 3);

    /** The CDK context of the stack with {@code maxReceives}: the consumers only, on a placeholder asset. */
    static Map<String, Object> context(int maxReceives) {
        return Map.of(
                "maxReceiveCount",
                Integer.toString(maxReceives),
                "allowShortRetries",
                "true",
                "placeholderAsset",
                "true",
                "checkoutProducer",
                "false",
                "placeholderDirectory",
                LocalRunFixture.SYNTHESIZED.resolve("placeholder").toString());
    }

    @Test
    void aFailingMessageReachesTheLocalDlqAfterTheReceivesTheCdkSettingsSay() throws IOException {
        for (int maxReceives : MAX_RECEIVES) {
            Path outdir = LocalRunFixture.synthesized(context(maxReceives));
            LocalAws aws = LocalAws.shared();
            aws.reset();
            ProvisionedResources resources =
                    new TemplateProvisioner(aws).provision(outdir.resolve("Redrive.template.json"));
            LocalQueue source =
                    resources.queueNamed("redrive-confirmation-email").orElseThrow();
            LocalQueue dlq =
                    resources.queueNamed("redrive-confirmation-email-dlq").orElseThrow();
            aws.sqs()
                    .setQueueAttributes(b ->
                            b.queueUrl(source.url()).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1")));
            aws.sqs().sendMessage(b -> b.queueUrl(source.url()).messageBody("always fails"));

            int receives = 0;
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline) {
                List<Message> got = aws.sqs()
                        .receiveMessage(b -> b.queueUrl(source.url())
                                .waitTimeSeconds(2)
                                .messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
                        .messages();
                receives += got.size(); // never deleted: the consumer "fails" every time
                if (got.isEmpty()
                        && !aws.sqs()
                                .receiveMessage(b -> b.queueUrl(dlq.url()).visibilityTimeout(0))
                                .messages()
                                .isEmpty()) {
                    break;
                }
            }
            assertThat(receives)
                    .as("receives before the DLQ with maxReceiveCount=%d", maxReceives)
                    .isEqualTo(maxReceives);
        }
    }
}
