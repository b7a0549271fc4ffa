package dev.redrive.testing.localaws.internal;

import dev.redrive.testing.localaws.LocalAwsException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * moto's server (DynamoDB, S3, and whatever else moto serves) as a child process, started through Redrive's
 * serializing launcher ({@code moto_serialized.py}): one lock around every request, because moto's threaded server is
 * not atomic and Redrive's tests depend on conditional writes being atomic.
 *
 * <p>The launcher also rolls DynamoDB transactions back from an undo log of the items they touched instead of moto's
 * deep copy of whole tables (a single-Put transaction on 10,000 items: ~20 ms instead of ~1 s), keeps moto from
 * holding every DynamoDB item it ever created, serializes DynamoDB answers through shapes compiled once, lets a Query
 * read only the items it can keep, and parses each update expression once; see {@code tooling/localstack/README.md},
 * {@code bin/benchmark moto} and {@code bin/benchmark moto-serving}.
 *
 * <p>The child binds 127.0.0.1 on a port the OS picks and reports it; it exits when its stdin closes, so it dies with
 * this JVM however the JVM ends.
 */
public final class MotoServer implements AutoCloseable {

    private static final String READY = "REDRIVE_MOTO_READY port=";
    private static final String TRANSACTIONS = "REDRIVE_MOTO_TRANSACTIONS ";
    private static final String ROUTING = "REDRIVE_MOTO_ROUTING ";
    private static final String SERVING = "REDRIVE_MOTO_SERVING ";
    private static final String REPORTED = "REDRIVE_MOTO_";
    private static final String WARNING = "REDRIVE_MOTO_WARNING ";
    private static final String STALLED = "REDRIVE_MOTO_STALLED";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Path log;
    private final URI endpoint;
    private final String transactions;
    private final String routing;
    private final String serving;
    private volatile List<String> reportedAtStop = List.of();
    private final List<String> stalls;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private MotoServer(Process process, Path log, URI endpoint, Ready ready) {
        this.stalls = ready.stalls();
        this.process = process;
        this.log = log;
        this.endpoint = endpoint;
        this.transactions = ready.transactions();
        this.routing = ready.routing();
        this.serving = ready.serving();
    }

    /**
     * What the launcher prints before it is ready: how it rolls back DynamoDB transactions, how it routes requests to
     * moto's services, how it serves DynamoDB (serializer, Query, update expressions), and its port.
     */
    private record Ready(String transactions, String routing, String serving, int port, List<String> stalls) {}

    public static MotoServer start() {
        return start(Map.of());
    }

    /**
     * Starts the launcher with these variables added to its environment (tests choose a launcher mode this way). The
     * prerequisite check ({@link MotoPrerequisite#check}: a Python that imports moto, about a second of CPU) runs only
     * when the launcher does not start: a launcher that came up ready has shown that moto is usable, and one without
     * Python or moto fails at once, so the check's error, which names the prerequisite, is still the one thrown at once.
     */
    public static MotoServer start(Map<String, String> environment) {
        String python = MotoPrerequisite.python();
        Path script;
        Path log;
        try {
            script = Files.createTempFile("redrive-moto-", ".py");
            try (InputStream in = MotoServer.class.getResourceAsStream("moto_serialized.py")) {
                if (in == null) {
                    throw new LocalAwsException("moto_serialized.py is missing from the redrive-testing jar");
                }
                Files.write(script, in.readAllBytes());
            }
            script.toFile().deleteOnExit();
            log = Files.createTempFile("redrive-moto-", ".log");
        } catch (IOException e) {
            throw new LocalAwsException("could not write the moto launcher to a temporary file", e);
        }
        Process process;
        try {
            ProcessBuilder builder =
                    new ProcessBuilder(List.of(python, "-u", script.toString())).redirectError(log.toFile());
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            MotoPrerequisite.check(python);
            throw new LocalAwsException("could not start '" + python + "'. " + MotoPrerequisite.INSTALL_HINT, e);
        }
        CompletableFuture<Ready> ready = CompletableFuture.supplyAsync(() -> readReady(process));
        try {
            Ready r = ready.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            MotoPrerequisite.usable(python);
            MotoServer server = new MotoServer(process, log, URI.create("http://127.0.0.1:" + r.port()), r);
            server.awaitReady();
            server.echoWarnings();
            return server;
        } catch (TimeoutException | ExecutionException | InterruptedException | RuntimeException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            process.destroyForcibly();
            if (e instanceof ExecutionException) { // it exited before it was ready: Python or moto missing, say
                MotoPrerequisite.check(python);
            }
            throw new LocalAwsException(
                    "moto did not start within " + START_TIMEOUT.toSeconds() + " s"
                            + (process.isAlive() ? "" : " (it exited)") + ". Its log ends with:\n" + tail(log),
                    e);
        }
    }

    private static Ready readReady(Process process) {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        try {
            String transactions = "unknown";
            String routing = "unknown";
            String serving = "unknown";
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(TRANSACTIONS)) {
                    transactions = line.substring(TRANSACTIONS.length()).strip();
                } else if (line.startsWith(ROUTING)) {
                    routing = line.substring(ROUTING.length()).strip();
                } else if (line.startsWith(SERVING)) {
                    serving = line.substring(SERVING.length()).strip();
                } else if (line.startsWith(READY)) {
                    int port = Integer.parseInt(line.substring(READY.length()).strip());
                    List<String> stalls = new CopyOnWriteArrayList<>();
                    drain(out, stalls);
                    return new Ready(transactions, routing, serving, port, stalls);
                }
            }
        } catch (IOException e) {
            throw new LocalAwsException("could not read moto's output", e);
        }
        throw new LocalAwsException("moto exited before it was ready");
    }

    /**
     * Keeps reading stdout so the child never blocks on a full pipe; a stall report (a request that held the launcher's
     * lock too long, see moto_serialized.py) goes to this JVM's stderr as it comes, and is kept for {@link
     * #stallReports()}.
     */
    private static void drain(BufferedReader out, List<String> stalls) {
        Thread t = new Thread(
                () -> {
                    try {
                        String line;
                        while ((line = out.readLine()) != null) {
                            if (line.startsWith(STALLED)) {
                                String report = line.substring(STALLED.length());
                                stalls.add(report);
                                System.err.println("redrive local AWS: moto stalled:" + report);
                            }
                        }
                    } catch (IOException ignored) {
                        // the child is gone
                    }
                },
                "moto-stdout");
        t.setDaemon(true);
        t.start();
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        IOException last = null;
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(endpoint.resolve("/moto-api/data.json"))
                                .timeout(Duration.ofSeconds(10))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalAwsException("interrupted while waiting for moto", e);
            }
            if (!process.isAlive()) {
                break;
            }
            pause();
        }
        throw new LocalAwsException("moto at " + endpoint + " did not answer", last);
    }

    private static void pause() {
        try {
            Thread.sleep(50); // polling a child process's socket: there is no event to await
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The launcher's warnings (for example that it kept moto's slow deep-copy rollback of transactions, and why) go to
     * this JVM's stderr as well as to the log, so that they are seen.
     */
    private void echoWarnings() {
        try {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (line.startsWith(WARNING)) {
                    System.err.println("redrive local AWS: " + line);
                }
            }
        } catch (IOException e) {
            System.err.println("redrive local AWS: could not read the moto log " + log + ": " + e.getMessage());
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    /**
     * How the launcher rolls back a cancelled TransactWriteItems, as it reported at start: {@code
     * rollback=undo-log moto=5.2.1} (the items the transaction touched) or {@code rollback=deep-copy moto=...} (moto's
     * own copy of every table it names).
     */
    public String transactions() {
        return transactions;
    }

    /**
     * How the launcher finds the service of a request, as it reported at start: {@code modules=listed-once} (moto's list
     * of its modules read once) or {@code modules=moto} (moto lists its package folder for every request).
     */
    public String routing() {
        return routing;
    }

    /**
     * How the launcher serves DynamoDB, as it reported at start: {@code serializer=compiled query=by-key
     * expressions=parsed-once} (its faster paths), {@code ...=moto} for each one left to moto, {@code ...=compare} for
     * each one run both ways and compared (see moto_serialized.py).
     */
    public String serving() {
        return serving;
    }

    /**
     * The launcher's {@code REDRIVE_MOTO_...} lines on its stderr when it stopped (warnings; in a compare mode, what it
     * compared and how much differed); empty before {@link #close()}.
     */
    public List<String> reportedAtStop() {
        return reportedAtStop;
    }

    /**
     * The lines of the launcher's stall reports so far (a request that held its lock longer than {@code
     * REDRIVE_MOTO_STALL_SECONDS}, 60 by default: which one, and where each of its threads stood); empty while none.
     */
    public List<String> stallReports() {
        return List.copyOf(stalls);
    }

    public boolean alive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** Drops every resource in every moto backend (tables, buckets...), in one request. */
    public void reset() {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(endpoint.resolve("/moto-api/reset"))
                            .timeout(Duration.ofSeconds(30))
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new LocalAwsException("moto reset answered " + r.statusCode() + ": " + r.body());
            }
        } catch (IOException e) {
            throw new LocalAwsException(
                    "moto reset failed" + (alive() ? "" : " (moto has exited; log:\n" + tail(log) + ")"), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalAwsException("interrupted while resetting moto", e);
        }
    }

    public String logTail() {
        return tail(log);
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close(); // EOF on stdin: the launcher exits by itself
        } catch (IOException ignored) {
            // already closed
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            reportedAtStop = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .filter(line -> line.startsWith(REPORTED))
                    .toList();
        } catch (IOException ignored) {
            // no log to read: nothing reported
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a temp file
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
