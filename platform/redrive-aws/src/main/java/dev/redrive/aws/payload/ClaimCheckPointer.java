package dev.redrive.aws.payload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The claim-check format of the Amazon SQS Extended Client Library (Java 2.x, and the Python and JavaScript ports that
 * copy it), the one place Redrive reads and writes it. A message whose payload lives in S3 has:
 *
 * <ul>
 *   <li>the message attribute {@value #SIZE_ATTRIBUTE} (data type {@code Number}: the payload's size in UTF-8 bytes),
 *       or {@value #LEGACY_SIZE_ATTRIBUTE} from the library's 1.x versions — the attribute, not the body, says that the
 *       body is a pointer;</li>
 *   <li>the body {@code ["software.amazon.payloadoffloading.PayloadS3Pointer",{"s3BucketName":"…","s3Key":"…"}]}: the
 *       pointer as the library's Jackson default typing writes it (1.x wrote the class name
 *       {@value #LEGACY_POINTER_CLASS}; both are read).</li>
 * </ul>
 *
 * Reading is strict: exactly that array, both names present and textual, nothing typed by the body itself (the
 * library deserializes with Jackson's default typing; this reader instantiates nothing the body names).
 *
 * @param bucket the S3 bucket holding the payload
 * @param key    the object key
 */
public record ClaimCheckPointer(String bucket, String key) {

    /** The attribute that marks a claim check (the payload's size in bytes). */
    public static final String SIZE_ATTRIBUTE = "ExtendedPayloadSize";
    /** The marking attribute of the library's 1.x versions. */
    public static final String LEGACY_SIZE_ATTRIBUTE = "SQSLargePayloadSize";
    /** The data type the size attribute is sent with. */
    public static final String SIZE_DATA_TYPE = "Number";
    /** The type name the pointer body carries. */
    public static final String POINTER_CLASS = "software.amazon.payloadoffloading.PayloadS3Pointer";
    /** The type name of the library's 1.x pointer. */
    public static final String LEGACY_POINTER_CLASS = "com.amazon.sqs.javamessaging.MessageS3Pointer";

    private static final List<String> MARKERS = List.of(SIZE_ATTRIBUTE, LEGACY_SIZE_ATTRIBUTE);
    private static final ObjectMapper JSON = new ObjectMapper();

    public ClaimCheckPointer {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        if (bucket.isBlank() || key.isBlank()) {
            throw new IllegalArgumentException("a claim-check pointer names a bucket and a key");
        }
    }

    /** Whether attributes with these names mark the message as a claim check. */
    public static boolean marks(Collection<String> attributeNames) {
        return MARKERS.stream().anyMatch(attributeNames::contains);
    }

    /** The marking attribute's name among these, if any ({@value #SIZE_ATTRIBUTE} first). */
    public static Optional<String> markerIn(Collection<String> attributeNames) {
        return MARKERS.stream().filter(attributeNames::contains).findFirst();
    }

    /** The value of the marking attribute for a payload: its size in UTF-8 bytes. */
    public static String sizeOf(String payload) {
        return Long.toString(payload.getBytes(StandardCharsets.UTF_8).length);
    }

    /** Reads a pointer body; empty when the body is not exactly a pointer of the library's format. */
    public static Optional<ClaimCheckPointer> parse(String body) {
        if (body == null || body.length() > 4096) {
            return Optional.empty(); // a pointer is short; a long body is a payload
        }
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (JsonProcessingException notJson) {
            return Optional.empty();
        }
        if (node == null || !node.isArray() || node.size() != 2) {
            return Optional.empty();
        }
        String type = node.get(0).asText("");
        JsonNode fields = node.get(1);
        if (!(POINTER_CLASS.equals(type) || LEGACY_POINTER_CLASS.equals(type)) || !fields.isObject()) {
            return Optional.empty();
        }
        JsonNode bucket = fields.get("s3BucketName");
        JsonNode key = fields.get("s3Key");
        if (bucket == null || key == null || !bucket.isTextual() || !key.isTextual()) {
            return Optional.empty();
        }
        if (bucket.asText().isBlank() || key.asText().isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new ClaimCheckPointer(bucket.asText(), key.asText()));
    }

    /** The pointer body, as the library writes it. */
    public String toBody() {
        ArrayNode array = JSON.createArrayNode();
        array.add(POINTER_CLASS);
        ObjectNode fields = array.addObject();
        fields.put("s3BucketName", bucket);
        fields.put("s3Key", key);
        return array.toString();
    }

    @Override
    public String toString() {
        return "s3://" + bucket + "/" + key;
    }
}
