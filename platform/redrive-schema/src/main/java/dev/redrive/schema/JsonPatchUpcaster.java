package dev.redrive.schema;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.flipkart.zjsonpatch.InvalidJsonPatchException;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import dev.redrive.core.failure.SchemaViolation;
import dev.redrive.core.schema.Upcaster;
import java.util.Map;

/**
 * A declared upcaster: an RFC 6902 JSON Patch that turns {@code eventType} at {@code fromVersion} into the next version
 * (applied with zjsonpatch on the Jackson tree; {@code move}, {@code copy}, {@code add}, {@code remove},
 * {@code replace}, {@code test}). A patch that cannot apply to an event (a {@code test} that fails, a path that is not
 * there) is a {@link SchemaViolation} {@code UpcastFailed}, naming the versions, never the event's values.
 */
public final class JsonPatchUpcaster implements Upcaster {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String eventType;
    private final int fromVersion;
    private final JsonNode patch;

    /** Checks {@code patch} is a JSON Patch document (an array of operations) at once. */
    public JsonPatchUpcaster(String eventType, int fromVersion, JsonNode patch) {
        this.eventType = eventType;
        this.fromVersion = fromVersion;
        this.patch = patch.deepCopy();
        try {
            JsonPatch.validate(this.patch);
        } catch (InvalidJsonPatchException e) {
            throw new IllegalArgumentException(
                    "the upcaster of " + eventType + " v" + fromVersion + " is not a JSON Patch: " + e.getMessage(), e);
        }
    }

    @Override
    public String eventType() {
        return eventType;
    }

    @Override
    public int fromVersion() {
        return fromVersion;
    }

    /** The patch, as declared. */
    public JsonNode patch() {
        return patch.deepCopy();
    }

    /** Applies the patch to {@code event}; never mutates it. */
    public JsonNode apply(JsonNode event) {
        try {
            return JsonPatch.apply(patch, event);
        } catch (JsonPatchApplicationException e) {
            throw new SchemaViolation(
                    "UpcastFailed",
                    eventType + " v" + fromVersion + " cannot be upcast to v" + toVersion()
                            + ": the declared patch does not apply"
                            + (e.getPath() == null ? "" : " (" + e.getOperation() + " at " + e.getPath() + ")"));
        }
    }

    @Override
    public Map<String, Object> upcast(Map<String, Object> event) {
        return JSON.convertValue(apply(JSON.valueToTree(event)), new TypeReference<Map<String, Object>>() {});
    }
}
