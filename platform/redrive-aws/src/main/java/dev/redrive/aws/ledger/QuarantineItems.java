package dev.redrive.aws.ledger;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.DeadLetterEvidence;
import dev.redrive.core.quarantine.DeadLetterOrigin;
import dev.redrive.core.quarantine.PayloadLocation;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The quarantine table's item layout: {@code pk} = quarantine id, {@code sk} = {@value #SK}; GSI {@code byState}
 * ({@code state}, {@code arrivedAt}) and GSI {@code byQueue} ({@code sourceQueue}, {@code arrivedAt}). Instants are
 * epoch milliseconds; the audit trail is a list of maps inside the item (append-only through the state machine), an
 * entry that is no transition (a reveal of the payload) carrying its {@code action}; one without is a transition (every
 * entry written before actions existed).
 * A tombstone (archived to S3) keeps its state in {@code storedState} instead of {@code state}: it leaves the sparse
 * {@code byState} index, the active ledger, and stays findable by id and by queue.
 */
public final class QuarantineItems {

    public static final String SK = "record";
    public static final String BY_STATE = "byState";
    public static final String BY_QUEUE = "byQueue";

    /**
     * Every attribute {@link #toItem} may write besides the key: a save sets those the record has and removes the
     * others (the fencing token, {@code fence}, is not a record's: the ledger's writes keep it).
     */
    public static final List<String> ATTRIBUTES = List.of(
            "state",
            "storedState",
            "consumer",
            "sourceQueue",
            "deadLetterQueue",
            "idempotencyKey",
            "failureClass",
            "errorType",
            "reason",
            "dependency",
            "firstFailedAt",
            "lastFailedAt",
            "arrivedAt",
            "receiveCount",
            "sourceMessageId",
            "body",
            "bodyRef",
            "attributes",
            "replayCount",
            "note",
            "archiveRef",
            "audit",
            "buildVersion",
            "version");

    private QuarantineItems() {}

    public static Map<String, AttributeValue> key(String id) {
        return Map.of("pk", s(id), "sk", s(SK));
    }

    public static Map<String, AttributeValue> toItem(QuarantineRecord r) {
        Map<String, AttributeValue> item = new HashMap<>(key(r.id()));
        item.put(r.archivedToStore() ? "storedState" : "state", s(r.state().name()));
        item.put("consumer", s(r.consumer()));
        item.put("sourceQueue", s(r.sourceQueue()));
        put(item, "deadLetterQueue", r.deadLetterQueue());
        put(item, "idempotencyKey", r.idempotencyKey());
        Classification c = r.classification();
        item.put("failureClass", s(c.failureClass().name()));
        item.put("errorType", s(c.errorType()));
        put(item, "reason", c.reason());
        put(item, "dependency", c.dependency());
        putInstant(item, "firstFailedAt", r.firstFailedAt());
        putInstant(item, "lastFailedAt", r.lastFailedAt());
        putInstant(item, "arrivedAt", r.arrivedAt());
        item.put("receiveCount", n(r.receiveCount()));
        put(item, "sourceMessageId", r.sourceMessageId());
        put(item, "body", r.body());
        put(item, "bodyRef", r.bodyRef());
        if (!r.attributes().isEmpty()) {
            Map<String, AttributeValue> attributes = new HashMap<>();
            r.attributes().forEach((k, v) -> attributes.put(k, attribute(v)));
            item.put("attributes", AttributeValue.fromM(attributes));
        }
        item.put("replayCount", n(r.replayCount()));
        put(item, "note", r.note());
        put(item, "archiveRef", r.archiveRef());
        put(item, "buildVersion", r.buildVersion());
        List<AttributeValue> audit = new ArrayList<>();
        for (AuditEntry a : r.audit()) {
            Map<String, AttributeValue> entry = new HashMap<>();
            if (a.from() != null) {
                entry.put("from", s(a.from().name()));
            }
            entry.put("to", s(a.to().name()));
            entry.put("at", n(a.at().toEpochMilli()));
            entry.put("actor", s(a.actor().name()));
            put(entry, "reason", a.reason());
            if (!a.transition()) {
                entry.put("action", s(a.action().name()));
            }
            audit.add(AttributeValue.fromM(entry));
        }
        item.put("audit", AttributeValue.fromL(audit));
        item.put("version", n(r.version()));
        return item;
    }

    /**
     * A message attribute as stored: a map of its {@code dataType} and its {@code stringValue} or {@code binaryValue}
     * (B), so Number and Binary attributes, custom types included, come back as they were sent.
     */
    private static AttributeValue attribute(MessageAttribute a) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("dataType", s(a.dataType()));
        if (a.binaryValue() != null) {
            m.put("binaryValue", AttributeValue.fromB(SdkBytes.fromByteArray(a.binaryValue())));
        } else if (a.stringValue() != null) {
            m.put("stringValue", s(a.stringValue()));
        }
        return AttributeValue.fromM(m);
    }

    /** A stored attribute; a plain string is one written before attributes kept their types: a String attribute. */
    private static MessageAttribute attribute(AttributeValue v) {
        if (v.s() != null) {
            return MessageAttribute.ofString(v.s());
        }
        Map<String, AttributeValue> m = v.m();
        AttributeValue binary = m.get("binaryValue");
        return new MessageAttribute(
                str(m, "dataType"),
                str(m, "stringValue"),
                binary == null ? null : binary.b().asByteArray());
    }

    /**
     * Whether {@code item} is a dead letter's record: a scan of the table also meets each source queue's counts item
     * (kept by the ledger as it writes), which is no record.
     */
    public static boolean isRecord(Map<String, AttributeValue> item) {
        AttributeValue sk = item.get("sk");
        return sk != null && SK.equals(sk.s());
    }

    public static QuarantineRecord fromItem(Map<String, AttributeValue> item) {
        Map<String, MessageAttribute> attributes = new HashMap<>();
        if (item.containsKey("attributes")) {
            item.get("attributes").m().forEach((k, v) -> attributes.put(k, attribute(v)));
        }
        List<AuditEntry> audit = new ArrayList<>();
        if (item.containsKey("audit")) {
            for (AttributeValue v : item.get("audit").l()) {
                Map<String, AttributeValue> e = v.m();
                audit.add(new AuditEntry(
                        e.containsKey("from")
                                ? QuarantineState.valueOf(e.get("from").s())
                                : null,
                        QuarantineState.valueOf(e.get("to").s()),
                        Instant.ofEpochMilli(Long.parseLong(e.get("at").n())),
                        new Actor(e.get("actor").s()),
                        str(e, "reason"),
                        e.containsKey("action")
                                ? AuditEntry.Action.valueOf(e.get("action").s())
                                : AuditEntry.Action.TRANSITION));
            }
        }
        return new QuarantineRecord(
                str(item, "pk"),
                QuarantineState.valueOf(item.containsKey("state") ? str(item, "state") : str(item, "storedState")),
                new DeadLetterOrigin(
                        str(item, "consumer"),
                        str(item, "sourceQueue"),
                        str(item, "deadLetterQueue"),
                        str(item, "sourceMessageId"),
                        str(item, "idempotencyKey"),
                        instant(item, "arrivedAt")),
                new DeadLetterEvidence(
                        new Classification(
                                FailureClass.valueOf(str(item, "failureClass")),
                                str(item, "errorType"),
                                str(item, "reason"),
                                str(item, "dependency")),
                        instant(item, "firstFailedAt"),
                        instant(item, "lastFailedAt"),
                        (int) num(item, "receiveCount"),
                        str(item, "buildVersion")),
                payload(item),
                attributes,
                (int) num(item, "replayCount"),
                str(item, "note"),
                audit,
                num(item, "version"));
    }

    /**
     * Where the payload is: {@code archiveRef} on a tombstone, {@code bodyRef} when kept aside, else inline. An empty
     * body is not written (an empty string attribute is left out like every other), so none stored is an empty one.
     */
    private static PayloadLocation payload(Map<String, AttributeValue> item) {
        if (item.containsKey("archiveRef")) {
            return new PayloadLocation.Archived(str(item, "archiveRef"));
        }
        if (item.containsKey("bodyRef")) {
            return new PayloadLocation.Aside(str(item, "bodyRef"));
        }
        String body = str(item, "body");
        return new PayloadLocation.Inline(body == null ? "" : body);
    }

    /** The version of a stored item (0 when it has none). */
    static long version(Map<String, AttributeValue> item) {
        return num(item, "version");
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    private static void put(Map<String, AttributeValue> item, String name, String value) {
        if (value != null && !value.isEmpty()) {
            item.put(name, s(value));
        }
    }

    private static void putInstant(Map<String, AttributeValue> item, String name, Instant value) {
        if (value != null) {
            item.put(name, n(value.toEpochMilli()));
        }
    }

    private static String str(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }

    private static long num(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? 0 : Long.parseLong(v.n());
    }

    private static Instant instant(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? null : Instant.ofEpochMilli(Long.parseLong(v.n()));
    }
}
