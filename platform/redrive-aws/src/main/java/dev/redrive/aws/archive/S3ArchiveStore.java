package dev.redrive.aws.archive;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.sweeper.ArchiveStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * The archive on S3: one gzip JSON Lines object per batch, under
 * {@code archive/queue=<source queue>/date=<arrival day>/<timestamp>-<uuid>.jsonl.gz}, encrypted with the archive's KMS
 * key. Each line holds one dead letter: payload, attributes, classification, audit trail and archive reason.
 */
public final class S3ArchiveStore implements ArchiveStore {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final S3Client s3;
    private final String bucket;
    private final String kmsKeyId;
    private final Clock clock;

    public S3ArchiveStore(S3Client s3, String bucket, String kmsKeyId, Clock clock) {
        this.s3 = s3;
        this.bucket = bucket;
        this.kmsKeyId = kmsKeyId;
        this.clock = clock;
    }

    @Override
    public String write(String sourceQueue, LocalDate day, List<Entry> entries) {
        String key = "archive/queue=" + sourceQueue + "/date=" + day + "/"
                + clock.instant().toEpochMilli() + "-" + UUID.randomUUID() + ".jsonl.gz";
        byte[] object = gzipLines(entries);
        PutObjectRequest.Builder put = PutObjectRequest.builder()
                .bucket(bucket)
                .key(key)
                .contentType("application/x-ndjson")
                .contentEncoding("gzip")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS)
                .metadata(Map.of("entries", Integer.toString(entries.size())));
        if (kmsKeyId != null && !kmsKeyId.isBlank()) {
            put.ssekmsKeyId(kmsKeyId);
        }
        s3.putObject(put.build(), RequestBody.fromBytes(object));
        return key;
    }

    private byte[] gzipLines(List<Entry> entries) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            for (Entry e : entries) {
                gzip.write(JSON.writeValueAsString(line(e)).getBytes(StandardCharsets.UTF_8));
                gzip.write('\n');
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an archive line did not serialize", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Each attribute as SQS describes one: its {@code dataType} and its {@code stringValue} or its {@code binaryValue}
     * (base64), so Number and Binary attributes, custom types included, are archived as they were sent.
     */
    private static Map<String, Object> attributes(QuarantineRecord r) {
        Map<String, Object> all = new TreeMap<>();
        r.attributes().forEach((name, a) -> {
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("dataType", a.dataType());
            if (a.binaryValue() != null) {
                value.put("binaryValue", Base64.getEncoder().encodeToString(a.binaryValue()));
            } else {
                value.put("stringValue", a.stringValue());
            }
            all.put(name, value);
        });
        return all;
    }

    private Map<String, Object> line(Entry e) {
        QuarantineRecord r = e.record();
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("quarantineId", r.id());
        line.put("state", r.state().name());
        line.put("consumer", r.consumer());
        line.put("sourceQueue", r.sourceQueue());
        line.put("deadLetterQueue", r.deadLetterQueue());
        line.put("idempotencyKey", r.idempotencyKey());
        Map<String, Object> classification = new LinkedHashMap<>();
        classification.put("failureClass", r.classification().failureClass().name());
        classification.put("errorType", r.classification().errorType());
        classification.put("reason", r.classification().reason());
        classification.put("dependency", r.classification().dependency());
        line.put("classification", classification);
        line.put("arrivedAt", r.arrivedAt().toString());
        line.put(
                "firstFailedAt",
                r.firstFailedAt() == null ? null : r.firstFailedAt().toString());
        line.put(
                "lastFailedAt",
                r.lastFailedAt() == null ? null : r.lastFailedAt().toString());
        line.put("receiveCount", r.receiveCount());
        line.put("replayCount", r.replayCount());
        line.put("sourceMessageId", r.sourceMessageId());
        line.put("note", r.note());
        line.put("archiveReason", e.archiveReason());
        line.put("archivedAt", clock.instant().toString());
        line.put("attributes", attributes(r));
        line.put("payload", e.body());
        if (e.claimCheck() != null) {
            line.put("claimCheck", e.claimCheck()); // the pointer it came as; "payload" is what it pointed at
        }
        List<Map<String, Object>> audit = new ArrayList<>();
        for (AuditEntry a : r.audit()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("from", a.from() == null ? null : a.from().name());
            entry.put("to", a.to().name());
            entry.put("at", a.at().toString());
            entry.put("actor", a.actor().name());
            entry.put("reason", a.reason());
            if (!a.transition()) {
                entry.put("action", a.action().name());
            }
            audit.add(entry);
        }
        line.put("audit", audit);
        return line;
    }
}
