package dev.redrive.aws.archive;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.sweeper.ArchiveStore;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.sweeper.ArchiveStoreContract;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/** The archive contract on S3 (a fresh bucket per test): gzip JSON Lines, KMS-encrypted. */
class S3ArchiveStoreTest extends ArchiveStoreContract {

    static final String KEY_ID = "arn:aws:kms:us-east-1:000000000000:key/redrive-test-archive";
    static final ObjectMapper JSON = new ObjectMapper();

    private final LocalAws aws = LocalAws.shared();
    private String bucket;

    @Override
    protected ArchiveStore newStore() {
        bucket = "archive-" + UUID.randomUUID().toString().substring(0, 8);
        aws.s3().createBucket(b -> b.bucket(bucket));
        return new S3ArchiveStore(
                aws.s3(), bucket, KEY_ID, Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC));
    }

    private List<JsonNode> lines(String ref) {
        byte[] object =
                aws.s3().getObjectAsBytes(b -> b.bucket(bucket).key(ref)).asByteArray();
        List<JsonNode> lines = new ArrayList<>();
        try (GZIPInputStream gzip = new GZIPInputStream(new ByteArrayInputStream(object))) {
            for (String line : new String(gzip.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                lines.add(JSON.readTree(line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }

    @Override
    protected List<ArchivedLine> read(String ref) {
        return lines(ref).stream()
                .map(n -> new ArchivedLine(
                        n.get("quarantineId").asText(),
                        n.get("state").asText(),
                        n.get("payload").asText(),
                        n.get("archiveReason").asText(),
                        n.get("audit").size(),
                        n.has("claimCheck") ? n.get("claimCheck").asText() : null))
                .toList();
    }

    /** Each attribute as a line holds it: {"dataType": ..., "stringValue": ...} or {..., "binaryValue": base64}. */
    @Override
    protected List<Map<String, MessageAttribute>> attributesOf(String ref) {
        List<Map<String, MessageAttribute>> all = new ArrayList<>();
        for (JsonNode n : lines(ref)) {
            Map<String, MessageAttribute> attributes = new LinkedHashMap<>();
            n.get("attributes").fields().forEachRemaining(e -> {
                JsonNode a = e.getValue();
                attributes.put(
                        e.getKey(),
                        new MessageAttribute(
                                a.get("dataType").asText(),
                                a.has("stringValue") ? a.get("stringValue").asText() : null,
                                a.has("binaryValue")
                                        ? Base64.getDecoder()
                                                .decode(a.get("binaryValue").asText())
                                        : null));
            });
            all.add(attributes);
        }
        return all;
    }

    @Test
    void anObjectIsGzipJsonLinesEncryptedWithTheArchiveKeyAndSaysHowManyEntriesItHolds() {
        String ref = store.write(queue, LocalDate.of(2026, 11, 29), List.of());

        HeadObjectResponse head = aws.s3().headObject(b -> b.bucket(bucket).key(ref));

        assertThat(ref).endsWith(".jsonl.gz");
        assertThat(head.contentEncoding()).isEqualTo("gzip");
        assertThat(head.contentType()).isEqualTo("application/x-ndjson");
        assertThat(head.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(head.ssekmsKeyId()).isEqualTo(KEY_ID);
        assertThat(head.metadata()).containsEntry("entries", "0");
    }
}
