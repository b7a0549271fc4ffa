package dev.redrive.console.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The run journal in a directory (the console's {@code --state-dir}): {@code RUN.json} holds a run's record, replaced
 * atomically (a temporary file moved over it) when it changes; {@code RUN.outcomes} its execution's outcomes, one JSON
 * line appended per dead letter. A process that dies mid-append leaves at most a torn last line, which is cut off when
 * the journal is read again (that dead letter's outcome is then asked of the ledger again on resume). One console at a
 * time uses a directory: it holds a lock on {@code .lock} there until {@link #close()}.
 */
public final class FileRunJournal implements RunJournal {

    /** A run id, as {@link BulkRuns} makes them: safe as a file name. */
    static final Pattern RUN_ID = Pattern.compile("run-[0-9]{8}-[0-9]{6}-[0-9a-f]{8}");

    private static final String RECORD = ".json";
    private static final String OUTCOMES = ".outcomes";

    private final Path dir;
    private final ObjectMapper json = new ObjectMapper();
    private final FileChannel lockFile;
    private final FileLock lock;

    /**
     * A journal in {@code dir}, created (readable by its owner only, where the file system has POSIX permissions) if
     * it does not exist.
     *
     * @throws UncheckedIOException when the directory cannot be created
     * @throws IllegalStateException when another console uses it
     */
    public FileRunJournal(Path dir) {
        this.dir = dir;
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir);
                if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
                }
            }
            lockFile = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the console's state directory " + dir + ": " + e, e);
        }
        FileLock held;
        try {
            held = lockFile.tryLock();
        } catch (OverlappingFileLockException | IOException e) {
            held = null;
        }
        if (held == null) {
            try {
                lockFile.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + dir.resolve(".lock") + ": " + e, e);
            }
            throw new IllegalStateException("another redrive console uses the state directory " + dir
                    + " (its bulk runs): stop it, or give this one another --state-dir");
        }
        lock = held;
    }

    /** Releases the directory's lock. */
    @Override
    public synchronized void close() {
        try {
            lock.release();
            lockFile.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the lock of " + dir + ": " + e, e);
        }
    }

    /** The directory it keeps runs in. */
    public Path dir() {
        return dir;
    }

    @Override
    public synchronized void save(Run run) {
        Path target = file(run.id(), RECORD);
        Path temporary = file(run.id(), RECORD + ".tmp");
        try {
            Files.write(temporary, json.writeValueAsBytes(run));
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save bulk run " + run.id() + " in " + dir + ": " + e, e);
        }
    }

    @Override
    public synchronized void append(String runId, Line outcome) {
        try {
            byte[] line = (json.writeValueAsString(outcome) + "\n").getBytes(StandardCharsets.UTF_8);
            Files.write(file(runId, OUTCOMES), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot record an outcome of bulk run " + runId + " in " + dir + ": " + e, e);
        }
    }

    @Override
    public synchronized List<Stored> load() {
        List<Stored> runs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(RECORD))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .toList()) {
                Run run = read(f);
                runs.add(new Stored(run, outcomes(run.id())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the console's state directory " + dir + ": " + e, e);
        }
        runs.sort(Comparator.comparing((Stored s) -> s.run().createdAt())
                .thenComparing(s -> s.run().id()));
        return runs;
    }

    private Run read(Path f) throws IOException {
        try {
            return json.readValue(f.toFile(), Run.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the bulk run file " + f + " cannot be read (" + e.getOriginalMessage()
                    + "); move it out of " + dir + " to start the console without it");
        }
    }

    /** The outcomes appended for {@code runId}; a torn last line (the process died writing it) is cut off. */
    private List<Line> outcomes(String runId) throws IOException {
        Path f = file(runId, OUTCOMES);
        List<Line> lines = new ArrayList<>();
        if (!Files.exists(f)) {
            return lines;
        }
        byte[] bytes = Files.readAllBytes(f);
        int start = 0;
        int lineNumber = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != '\n') {
                continue;
            }
            lineNumber++;
            String line = new String(bytes, start, i - start, StandardCharsets.UTF_8);
            try {
                lines.add(json.readValue(line, Line.class));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("line " + lineNumber + " of " + f + " cannot be read ("
                        + e.getOriginalMessage() + "); move the run's files out of " + dir
                        + " to start the console without it");
            }
            start = i + 1;
        }
        if (start < bytes.length) {
            try (FileChannel channel = FileChannel.open(f, StandardOpenOption.WRITE)) {
                channel.truncate(start);
            }
        }
        return lines;
    }

    private Path file(String runId, String suffix) {
        if (!RUN_ID.matcher(runId).matches()) {
            throw new IllegalArgumentException("not a bulk run id: '" + runId + "'");
        }
        return dir.resolve(runId + suffix);
    }
}
