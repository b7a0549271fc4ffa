package dev.redrive.localrun.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads what an AWS call does from its wire form: the table or bucket or queue it addresses (the stack's names), and
 * for claims and effects the idempotency key, the fencing token and the lease end they carry.
 *
 * @param claimsTable     the claims table
 * @param revenueTable    the revenue counters (the transactional effect)
 * @param quarantineTable the quarantine ledger
 * @param controlTable    leases, maintenance windows, replay statistics
 * @param outboxBucket    the email outbox (the external effect)
 * @param archiveBucket   the archive (and payloads stored aside)
 * @param deadLetterQueues the DLQ URLs
 * @param sourceQueues    the source queue URLs
 */
public record CallClassifier(
        String claimsTable,
        String revenueTable,
        String quarantineTable,
        String controlTable,
        String outboxBucket,
        String archiveBucket,
        Set<String> deadLetterQueues,
        Set<String> sourceQueues) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public AwsCall classify(Call call) {
        return switch (call.service()) {
            case "dynamodb" -> dynamoDb(call);
            case "sqs" -> sqs(call);
            case "s3" -> s3(call);
            default -> other(call, false);
        };
    }

    private AwsCall dynamoDb(Call call) {
        String op = call.operation();
        JsonNode body = parse(call);
        boolean write = op.startsWith("Put")
                || op.startsWith("Update")
                || op.startsWith("Delete")
                || op.startsWith("Transact") && op.contains("Write")
                || op.startsWith("BatchWrite");
        if ("TransactWriteItems".equals(op)) {
            JsonNode items = body.path("TransactItems");
            for (JsonNode item : items) {
                JsonNode put = item.path("Put");
                if (claimsTable.equals(put.path("TableName").asText())) {
                    JsonNode claim = put.path("Item");
                    return new AwsCall(
                            "dynamodb",
                            op,
                            EnumSet.of(CallRole.CLAIM, CallRole.EFFECT, CallRole.COMPLETION),
                            claim.path("pk").path("S").asText(null),
                            number(claim.path("fencingToken")),
                            number(claim.path("leaseExpiresAt")),
                            items.size(),
                            true,
                            claimsTable);
                }
            }
            String table = firstTable(items);
            return new AwsCall(
                    "dynamodb",
                    op,
                    EnumSet.of(roleOfTable(table, true)),
                    null,
                    -1,
                    -1,
                    Math.max(1, items.size()),
                    true,
                    table);
        }
        String table = body.path("TableName").asText("");
        if (claimsTable.equals(table)) {
            return claimCall(op, body, write);
        }
        return new AwsCall("dynamodb", op, EnumSet.of(roleOfTable(table, write)), null, -1, -1, 1, write, table);
    }

    private AwsCall claimCall(String op, JsonNode body, boolean write) {
        if ("PutItem".equals(op)) {
            JsonNode item = body.path("Item");
            String status = item.path("status").path("S").asText("");
            return new AwsCall(
                    "dynamodb",
                    op,
                    EnumSet.of("IN_PROGRESS".equals(status) ? CallRole.CLAIM : CallRole.CLAIM_FAILURE),
                    item.path("pk").path("S").asText(null),
                    number(item.path("fencingToken")),
                    number(item.path("leaseExpiresAt")),
                    1,
                    true,
                    claimsTable);
        }
        if ("UpdateItem".equals(op)) {
            JsonNode values = body.path("ExpressionAttributeValues");
            CallRole role = values.has(":completed") ? CallRole.COMPLETION : CallRole.RELEASE;
            return new AwsCall(
                    "dynamodb",
                    op,
                    EnumSet.of(role),
                    body.path("Key").path("pk").path("S").asText(null),
                    number(values.path(":token")),
                    -1,
                    1,
                    true,
                    claimsTable);
        }
        return new AwsCall(
                "dynamodb",
                op,
                EnumSet.of(write ? CallRole.OTHER : CallRole.CLAIM_READ),
                body.path("Key").path("pk").path("S").asText(null),
                -1,
                -1,
                1,
                write,
                claimsTable);
    }

    private CallRole roleOfTable(String table, boolean write) {
        if (quarantineTable.equals(table)) {
            return write ? CallRole.LEDGER_WRITE : CallRole.LEDGER_READ;
        }
        if (controlTable.equals(table)) {
            return write ? CallRole.CONTROL_WRITE : CallRole.CONTROL_READ;
        }
        if (claimsTable.equals(table)) {
            return write ? CallRole.OTHER : CallRole.CLAIM_READ;
        }
        return CallRole.OTHER;
    }

    private AwsCall sqs(Call call) {
        String op = call.operation();
        String queue = parse(call).path("QueueUrl").asText("");
        boolean dlq = deadLetterQueues.contains(queue);
        CallRole role;
        if (op.startsWith("SendMessage")) {
            role = dlq ? CallRole.DEAD_LETTER_SEND : CallRole.REPLAY_SEND;
        } else if (op.startsWith("ChangeMessageVisibility")) {
            role = CallRole.VISIBILITY_CHANGE;
        } else if ("ReceiveMessage".equals(op) && dlq) {
            role = CallRole.DLQ_RECEIVE;
        } else if (op.startsWith("DeleteMessage") && dlq) {
            role = CallRole.DLQ_DELETE;
        } else {
            role = CallRole.OTHER;
        }
        boolean write =
                op.startsWith("Send") || op.startsWith("Delete") || op.startsWith("Change") || op.startsWith("Purge");
        return new AwsCall("sqs", op, EnumSet.of(role), null, -1, -1, 1, write, queue);
    }

    private AwsCall s3(Call call) {
        String path = URLDecoder.decode(call.path(), StandardCharsets.UTF_8);
        String bucket = path.startsWith("/") ? path.substring(1).split("/", 2)[0] : "";
        boolean write = "PUT".equals(call.method()) || "POST".equals(call.method()) || "DELETE".equals(call.method());
        boolean objectPut = "PUT".equals(call.method()) && path.indexOf('/', 1) > 0 && call.query() == null;
        if (outboxBucket.equals(bucket) && objectPut) {
            String token = call.header("x-amz-meta-fencing-token");
            String key = call.header("x-amz-meta-idempotency-key");
            return new AwsCall(
                    "s3",
                    call.operation(),
                    EnumSet.of(CallRole.EFFECT),
                    key == null ? null : URLDecoder.decode(key, StandardCharsets.UTF_8), // the outbox encodes it
                    token == null ? -1 : Long.parseLong(token),
                    -1,
                    1,
                    true,
                    bucket);
        }
        CallRole role = archiveBucket.equals(bucket) && write ? CallRole.ARCHIVE_WRITE : CallRole.OTHER;
        return new AwsCall("s3", call.operation(), EnumSet.of(role), null, -1, -1, 1, write, bucket);
    }

    private static AwsCall other(Call call, boolean write) {
        return new AwsCall(call.service(), call.operation(), EnumSet.of(CallRole.OTHER), null, -1, -1, 1, write, "");
    }

    private static String firstTable(JsonNode items) {
        for (JsonNode item : items) {
            var fields = item.fields();
            if (fields.hasNext()) {
                return fields.next().getValue().path("TableName").asText("");
            }
        }
        return "";
    }

    private static long number(JsonNode attribute) {
        String n = attribute.path("N").asText(null);
        return n == null ? -1 : Long.parseLong(n);
    }

    private static JsonNode parse(Call call) {
        if (call.body().length == 0) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(call.body());
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }
}
