package dev.redrive.aws.queues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.consumer.IncomingMessage;
import dev.redrive.core.consumer.QueueGateway.DeadLetter;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

/** Dead letters near SQS's size limits: 1 MiB per message, and per batch call all messages together. */
class SqsQueueGatewaySizeLimitsTest {

    static final int MIB = 1024 * 1024;
    static final String SOURCE = "https://sqs.eu-west-1.amazonaws.com/123456789012/orders";
    static final String DLQ = "https://sqs.eu-west-1.amazonaws.com/123456789012/orders-dlq";

    /** Answers like SQS: a call over 1 MiB in total fails whole; a message over 1 MiB fails alone. */
    static final class SizeCheckingSqs implements SqsClient {
        final List<SendMessageBatchRequest> calls = new ArrayList<>();
        final List<SendMessageBatchRequestEntry> accepted = new ArrayList<>();

        @Override
        public SendMessageBatchResponse sendMessageBatch(SendMessageBatchRequest request) {
            calls.add(request);
            long total = request.entries().stream()
                    .mapToLong(SqsQueueGatewaySizeLimitsTest::size)
                    .sum();
            if (total > MIB) {
                throw software.amazon.awssdk.services.sqs.model.BatchRequestTooLongException.builder()
                        .message("Batch requests cannot be longer than 1048576 bytes")
                        .build();
            }
            SendMessageBatchResponse.Builder r = SendMessageBatchResponse.builder();
            List<SendMessageBatchResultEntry> ok = new ArrayList<>();
            List<BatchResultErrorEntry> failed = new ArrayList<>();
            for (SendMessageBatchRequestEntry e : request.entries()) {
                if (size(e) > MIB) {
                    failed.add(BatchResultErrorEntry.builder()
                            .id(e.id())
                            .code("InvalidParameterValue")
                            .senderFault(true)
                            .build());
                } else {
                    accepted.add(e);
                    ok.add(SendMessageBatchResultEntry.builder()
                            .id(e.id())
                            .messageId("dlq-" + e.id())
                            .build());
                }
            }
            return r.successful(ok).failed(failed).build();
        }

        @Override
        public String serviceName() {
            return "sqs";
        }

        @Override
        public void close() {}
    }

    static long size(SendMessageBatchRequestEntry e) {
        long size = e.messageBody().getBytes(StandardCharsets.UTF_8).length;
        for (Map.Entry<String, MessageAttributeValue> a : e.messageAttributes().entrySet()) {
            size += a.getKey().getBytes(StandardCharsets.UTF_8).length
                    + a.getValue().dataType().getBytes(StandardCharsets.UTF_8).length
                    + a.getValue().stringValue().getBytes(StandardCharsets.UTF_8).length;
        }
        return size;
    }

    final SizeCheckingSqs sqs = new SizeCheckingSqs();
    final SqsQueueGateway gateway = new SqsQueueGateway(sqs, new QueueDirectory(sqs, Optional.of(DLQ)));

    static DeadLetter letter(String id, int bodyBytes, Map<String, String> attributes) {
        Instant now = Instant.parse("2026-11-29T12:00:00Z");
        IncomingMessage m = new IncomingMessage(id, "rh-" + id, "x".repeat(bodyBytes), attributes, 1, SOURCE, null);
        FailureRecord f = new FailureRecord(
                Classification.of(FailureClass.PERMANENT, "CardDeclined", "the issuer said no"), 1, now, now, SOURCE);
        return new DeadLetter(m, "confirmation-email", "confirmation-email#" + id, f);
    }

    @Test
    void deadLettersThatTogetherPassTheBatchLimitAreSentInSeveralCalls() {
        List<DeadLetter> letters = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            letters.add(letter("m-" + i, 200 * 1024, Map.of()));
        }

        assertThat(gateway.deadLetter(SOURCE, letters)).isEmpty();

        assertThat(sqs.accepted).hasSize(10);
        assertThat(sqs.calls)
                .allSatisfy(call -> assertThat(call.entries().stream()
                                .mapToLong(SqsQueueGatewaySizeLimitsTest::size)
                                .sum())
                        .isLessThanOrEqualTo(MIB));
    }

    @Test
    void aMessageAtTheSizeLimitIsSentWithoutItsMetadataRatherThanNotAtAll() {
        Map<String, String> attributes = new HashMap<>(Map.of("trace", "t-1"));
        int body = MIB - (int) ("trace".length() + "String".length() + "t-1".length());
        DeadLetter full = letter("m-big", body, attributes);

        assertThat(gateway.deadLetter(SOURCE, List.of(full))).isEmpty();

        assertThat(sqs.accepted).singleElement().satisfies(e -> {
            assertThat(e.messageAttributes()).containsKey("trace").doesNotContainKey(DeadLetterMetadata.ATTRIBUTE);
            assertThat(size(e)).isLessThanOrEqualTo(MIB);
        });
    }
}
