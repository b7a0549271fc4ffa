package dev.redrive.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table with aligned columns; cells longer than their column's limit end in an ellipsis. */
final class Table {

    private final List<String> headers;
    private final int[] limits;
    private final List<List<String>> rows = new ArrayList<>();

    /** {@code headers} with a width limit per column (0 = no limit). */
    Table(List<String> headers, int... limits) {
        this.headers = List.copyOf(headers);
        this.limits = limits.length == headers.size() ? limits.clone() : new int[headers.size()];
    }

    Table row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (int i = 0; i < headers.size(); i++) {
            String cell = i < cells.length && cells[i] != null ? String.valueOf(cells[i]) : "";
            cell = cell.replaceAll("\\s+", " ");
            if (limits[i] > 1 && cell.length() > limits[i]) {
                cell = cell.substring(0, limits[i] - 1) + "…";
            }
            row.add(cell);
        }
        rows.add(row);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintWriter out) {
        print(out, "");
    }

    /** Prints the table with every line indented by {@code indent}. */
    void print(PrintWriter out, String indent) {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        line(out, indent, headers, widths);
        rows.forEach(r -> line(out, indent, r, widths));
        out.flush();
    }

    private static void line(PrintWriter out, String indent, List<String> cells, int[] widths) {
        StringBuilder b = new StringBuilder(indent);
        for (int i = 0; i < cells.size(); i++) {
            boolean last = i == cells.size() - 1;
            b.append(last ? cells.get(i) : pad(cells.get(i), widths[i])).append(last ? "" : "  ");
        }
        out.println(b.toString().stripTrailing());
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
