package dev.redrive.reference;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A committed reference file and what the code generates for it. {@link #difference} says how they differ, as one
 * hunk of a unified diff (the lines between their common beginning and their common end).
 *
 * @param committed  the file, relative to the repository's root ({@code docs/reference/configuration.md})
 * @param regenerate the command that regenerates it, named in the failure
 * @param write      whether {@link #check} writes the generated text instead of comparing
 */
record ReferenceFile(Path committed, String regenerate, boolean write) {

    /** The system property that makes {@link #check} write the file. */
    static final String WRITE = "redrive.reference.write";

    /** Lines of each side shown at most. */
    static final int SHOWN = 12;

    /** Writes when the system property {@value #WRITE} is {@code true} (the regenerating command sets it). */
    ReferenceFile(Path committed, String regenerate) {
        this(committed, regenerate, Boolean.getBoolean(WRITE));
    }

    /**
     * Writes {@code generated} when {@link #write}; else fails, with the diff and {@link #regenerate}, unless the
     * committed file is {@code generated}.
     */
    void check(String generated) {
        Path file = JavaSources.ROOT.resolve(committed);
        try {
            if (write) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, generated, StandardCharsets.UTF_8);
                System.out.println(committed + " written: " + generated.lines().count() + " lines");
                return;
            }
            String current = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
            difference(current, generated).ifPresent(diff -> {
                throw new AssertionError(committed + " is not what the code generates:\n" + diff
                        + "\nRegenerate it (and commit the result):\n  " + regenerate);
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How {@code generated} differs from {@code committed}: one hunk, {@code -} committed, {@code +} generated. */
    static Optional<String> difference(String committed, String generated) {
        if (committed.equals(generated)) {
            return Optional.empty();
        }
        List<String> was = committed.lines().toList();
        List<String> is = generated.lines().toList();
        int start = 0;
        while (start < was.size() && start < is.size() && was.get(start).equals(is.get(start))) {
            start++;
        }
        int endWas = was.size();
        int endIs = is.size();
        while (endWas > start && endIs > start && was.get(endWas - 1).equals(is.get(endIs - 1))) {
            endWas--;
            endIs--;
        }
        StringBuilder out = new StringBuilder();
        out.append(String.format("@@ -%d,%d +%d,%d @@%n", start + 1, endWas - start, start + 1, endIs - start));
        lines(out, "-", was.subList(start, endWas));
        lines(out, "+", is.subList(start, endIs));
        if (was.equals(is)) {
            out.append("(the lines are the same: the line endings or the final newline differ)\n");
        }
        return Optional.of(out.toString());
    }

    private static void lines(StringBuilder out, String sign, List<String> lines) {
        lines.stream().limit(SHOWN).forEach(l -> out.append(sign).append(l).append('\n'));
        if (lines.size() > SHOWN) {
            out.append(sign).append(" ... ").append(lines.size() - SHOWN).append(" more\n");
        }
    }
}
