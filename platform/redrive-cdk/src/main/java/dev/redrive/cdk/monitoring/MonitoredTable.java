package dev.redrive.cdk.monitoring;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import software.amazon.awscdk.services.dynamodb.ITable;

/**
 * A DynamoDB table {@link Monitoring} alarms on: its read plus write throttle events ({@code
 * <prefix>-<name>-table-throttles}), and each global secondary index's ({@code <prefix>-<name>-<index>-index-throttles}:
 * an index's throttles are reported only under its {@code GlobalSecondaryIndexName} dimension, and a throttled index
 * write throttles the table's write). Give the indexes by name: {@code ITable} does not list them.
 *
 * @param name    names its alarms: letters, digits, {@code .}, {@code -} and {@code _}, a plain string (table names are
 *                usually generated)
 * @param table   the table
 * @param indexes its global secondary indexes' names; unique
 */
public record MonitoredTable(String name, ITable table, List<String> indexes) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    /** Checks every part and copies the indexes. */
    public MonitoredTable {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(table, "table");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("monitored table '" + name + "' is not a name (letters, digits, '.',"
                    + " '-' and '_'): its alarms are named after it");
        }
        indexes = List.copyOf(indexes);
        Set<String> seen = new HashSet<>();
        for (String index : indexes) {
            if (!NAME.matcher(index).matches() || !seen.add(index)) {
                throw new IllegalArgumentException("monitored table " + name + ": index '" + index
                        + "' is blank, not an index name or given twice");
            }
        }
    }

    /** A table without global secondary indexes. */
    public MonitoredTable(String name, ITable table) {
        this(name, table, List.of());
    }
}
