package dev.redrive.localrun;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What the JVMs of one build make once for a set of inputs and share: a file or a folder in a cache folder, named by
 * the SHA-256 of its inputs, which are kept beside it ({@code <name>.inputs}) and compared on every read. The first JVM
 * to ask makes it while it holds the cache folder's lock for those inputs (a file lock across JVMs, a monitor within
 * this one), into a fresh path that it then renames into place; the others wait for the lock and find it there. An
 * entry in place is never replaced, so whoever has it may read it.
 *
 * <p>The local run's tests share their synthesized stacks this way, and the class-data archive of the functions
 * ({@link LocalSystem}, with {@code -Dredrive.localrun.shared-class-data}).
 */
public final class SharedByInputs {

    /** Makes the entry at {@code fresh}, a path that does not exist yet (a file or a folder); false when it cannot. */
    @FunctionalInterface
    public interface Maker {
        boolean make(Path fresh) throws IOException, InterruptedException;
    }

    /** An entry in place, and whether this call made it. */
    public record Entry(Path path, boolean madeHere) {}

    private SharedByInputs() {}

    /** The entry of {@code inputs} in {@code cache}, found or made by {@code maker}; empty when the maker could not. */
    public static Optional<Entry> get(Path cache, String inputs, Maker maker) throws IOException, InterruptedException {
        Files.createDirectories(cache);
        String name = sha256(inputs);
        Path entry = cache.resolve(name);
        Path recorded = cache.resolve(name + ".inputs");
        synchronized (SharedByInputs.class) {
            try (FileChannel lock = FileChannel.open(
                    cache.resolve(name + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                lock.lock(); // released as the channel closes
                if (Files.exists(entry)
                        && Files.isRegularFile(recorded)
                        && inputs.equals(Files.readString(recorded, StandardCharsets.UTF_8))) {
                    return Optional.of(new Entry(entry, false));
                }
                Path fresh = cache.resolve(name + ".making");
                deleteTree(fresh); // left by a JVM that ended while making it
                deleteTree(entry); // whatever is there is not of these inputs
                if (!maker.make(fresh) || !Files.exists(fresh)) {
                    deleteTree(fresh);
                    return Optional.empty();
                }
                Files.writeString(recorded, inputs, StandardCharsets.UTF_8);
                Files.move(fresh, entry, StandardCopyOption.ATOMIC_MOVE);
                return Optional.of(new Entry(entry, true));
            }
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
