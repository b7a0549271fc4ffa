package dev.redrive.functions.bench;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB write units from counted calls, by the pricing rules (on-demand write request units and provisioned WCU
 * count alike): a standard write of an item up to 1 KB costs 1 unit, one more per started KB beyond, sized by the
 * larger of the item before and after the write; a conditional write that fails still costs them; a DeleteItem is
 * sized by the deleted item; a transactional write costs 2 units per item per KB. Reads cost none.
 */
final class WriteUnits {

    static final String RULE = "write units (WCU) by DynamoDB's pricing rules: a write of an item up to 1 KB costs 1"
            + " (1 per started KB, of the larger of the item before and after); a refused conditional write costs the"
            + " same; a delete is sized by the deleted item; a transactional write costs 2 per item; reads cost none";

    private WriteUnits() {}

    /**
     * The write units of {@code calls} (by operation, {@code !} marking a refused call) when no item is larger than
     * {@code largestItemBytes}: an upper bound, exact when every item fits in the same number of KB.
     */
    static int of(Map<String, Integer> calls, int largestItemBytes) {
        int perWrite = Math.max(1, (largestItemBytes + 1023) / 1024);
        int units = 0;
        for (Map.Entry<String, Integer> call : calls.entrySet()) {
            String operation = call.getKey().replace("!", "");
            switch (operation) {
                case "PutItem", "UpdateItem", "DeleteItem" -> units += perWrite * call.getValue();
                case "GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems" -> {
                    // reads consume read units only
                }
                default ->
                    throw new IllegalArgumentException(
                            operation + " is not priced here (a transaction or batch needs its item count)");
            }
        }
        return units;
    }

    /** The largest item of {@code table}, in bytes by DynamoDB's sizing rules (one Scan, not counted). */
    static int largestItemBytes(DynamoDbClient dynamoDb, String table) {
        return dynamoDb.scanPaginator(b -> b.tableName(table)).items().stream()
                .mapToInt(WriteUnits::itemBytes)
                .max()
                .orElse(0);
    }

    /** An item's size: each attribute's name in UTF-8 plus its value. */
    static int itemBytes(Map<String, AttributeValue> item) {
        int bytes = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            bytes += utf8(attribute.getKey()) + valueBytes(attribute.getValue());
        }
        return bytes;
    }

    private static int valueBytes(AttributeValue value) {
        if (value.s() != null) {
            return utf8(value.s());
        }
        if (value.n() != null) {
            return numberBytes(value.n());
        }
        if (value.bool() != null || Boolean.TRUE.equals(value.nul())) {
            return 1;
        }
        throw new IllegalArgumentException("not sized here: " + value.type());
    }

    /** A number: 1 byte per two significant digits, plus 1. */
    static int numberBytes(String number) {
        String digits = number.replaceAll("[^0-9]", "").replaceFirst("^0+", "").replaceFirst("0+$", "");
        return (Math.max(1, digits.length()) + 1) / 2 + 1;
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
