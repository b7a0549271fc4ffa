package dev.redrive.testing.localaws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.redrive.testing.localaws.internal.MotoPrerequisite;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How local AWS starts, stops and is pointed elsewhere. Beside the {@link LocalAws#shared() shared} instance, the class
 * starts one second instance for its tests (emptied before each), and one child JVM with its own: a moto start costs
 * seconds (Python imports moto), so no test starts one it can share.
 */
class LocalAwsLifecycleTest {

    /** A second local AWS beside the shared one, emptied before each test. */
    private static LocalAws second;

    @BeforeAll
    static void startSecond() {
        CompletableFuture<LocalAws> starting =
                CompletableFuture.supplyAsync(() -> LocalAws.start(EndpointOverrides.from(Map.of())));
        LocalAws.shared(); // the other tests of this JVM use it anyway: it starts meanwhile
        second = starting.join();
    }

    @AfterAll
    static void stopSecond() {
        if (second != null) {
            second.close();
        }
    }

    @BeforeEach
    void emptySecond() {
        second.reset();
    }

    @Test
    void endpointsFromTheEnvironmentFollowTheSdkPrecedence() {
        EndpointOverrides none = EndpointOverrides.from(Map.of());
        assertThat(none.any()).isFalse();
        assertThat(none.needsMoto()).isTrue();

        EndpointOverrides all = EndpointOverrides.from(
                Map.of("AWS_ENDPOINT_URL", "http://localhost:4566", "AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:9999"));
        assertThat(all.sqs()).contains(URI.create("http://127.0.0.1:9999"));
        assertThat(all.dynamoDb()).contains(URI.create("http://localhost:4566"));
        assertThat(all.s3()).contains(URI.create("http://localhost:4566"));
        assertThat(all.needsMoto()).isFalse();

        EndpointOverrides sqsOnly = EndpointOverrides.from(Map.of("AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:9999"));
        assertThat(sqsOnly.needsMoto()).isTrue();
        assertThat(sqsOnly.dynamoDb()).isEqualTo(Optional.empty());
    }

    @Test
    void aMalformedEndpointIsNamedInTheError() {
        assertThatThrownBy(() -> EndpointOverrides.from(Map.of("AWS_ENDPOINT_URL", "localhost")))
                .isInstanceOf(LocalAwsException.class)
                .hasMessageContaining("AWS_ENDPOINT_URL=localhost");
    }

    @Test
    void aMissingPythonFailsAtOnceNamingThePrerequisite() {
        long started = System.nanoTime();
        assertThatThrownBy(() -> MotoPrerequisite.check("/nonexistent/python3"))
                .isInstanceOf(LocalAwsException.class)
                .hasMessageContaining("pip install 'moto[server]'")
                .hasMessageContaining("/nonexistent/python3");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aPythonWithoutMotoFailsAtOnceNamingThePrerequisite(@TempDir Path dir) throws IOException {
        Path fakePython = dir.resolve("python3");
        Files.writeString(fakePython, "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'moto'\"\nexit 1\n");
        Files.setPosixFilePermissions(fakePython, PosixFilePermissions.fromString("rwx------"));

        assertThatThrownBy(() -> MotoPrerequisite.check(fakePython.toString()))
                .isInstanceOf(LocalAwsException.class)
                .hasMessageContaining("No module named 'moto'")
                .hasMessageContaining("pip install 'moto[server]'");
        assertThatThrownBy(() -> MotoPrerequisite.check(fakePython.toString()))
                .as("a failed check is not remembered as passed")
                .isInstanceOf(LocalAwsException.class)
                .hasMessageContaining("No module named 'moto'");
    }

    @Test
    void motoDiesWithTheJvmThatStartedItEvenWhenThatJvmIsKilled() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), LocalAwsMain.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        long motoPid;
        try {
            motoPid = awaitMotoPid(child);
            assertThat(ProcessHandle.of(motoPid).map(ProcessHandle::isAlive)).contains(true);
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hook runs
            child.waitFor(30, TimeUnit.SECONDS);
        }
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(() ->
                        ProcessHandle.of(motoPid).map(ProcessHandle::isAlive).orElse(false) == Boolean.FALSE);
    }

    @Test
    void twoInstancesOnOneMachineDoNotShareAnything() {
        LocalAws a = LocalAws.shared();
        LocalAws b = second;
        String name = "only-in-a-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(a.sqsEndpoint()).isNotEqualTo(b.sqsEndpoint());
        assertThat(a.dynamoDbEndpoint()).isNotEqualTo(b.dynamoDbEndpoint());
        assertThat(a.motoPid()).isNotEqualTo(b.motoPid());
        String queue = a.sqs().createQueue(r -> r.queueName(name)).queueUrl();
        LocalAwsServicesTest.createTable(a.dynamoDb(), name);
        try {
            assertThat(b.sqs().listQueues().queueUrls()).isEmpty();
            assertThat(b.dynamoDb().listTables().tableNames()).isEmpty();
        } finally {
            a.sqs().deleteQueue(r -> r.queueUrl(queue));
            a.dynamoDb().deleteTable(r -> r.tableName(name));
        }
    }

    @Test
    void givenEndpointsAreUsedAndNothingIsStarted() {
        LocalAws real = second;
        EndpointOverrides fromEnv = EndpointOverrides.from(Map.of(
                "AWS_ENDPOINT_URL_SQS", real.sqsEndpoint().toString(),
                "AWS_ENDPOINT_URL", real.dynamoDbEndpoint().toString()));
        try (LocalAws external = LocalAws.start(fromEnv)) {
            assertThat(external.startedEmulators()).isFalse();
            assertThat(external.motoPid()).isEmpty();
            external.sqs().createQueue(r -> r.queueName("via-env"));
            assertThat(real.sqs().listQueues().queueUrls()).anyMatch(u -> u.endsWith("/via-env"));
            external.reset();
            assertThat(real.sqs().listQueues().queueUrls()).isEmpty();
        }
    }

    /** The pid the child reports for its moto, within 60 s (a child that hangs fails the test, not the build). */
    private static long awaitMotoPid(Process child) throws Exception {
        CompletableFuture<Long> pid = CompletableFuture.supplyAsync(() -> {
            try {
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = out.readLine()) != null) {
                    int at = line.indexOf("moto, pid ");
                    if (at >= 0) {
                        return Long.parseLong(
                                line.substring(at + "moto, pid ".length()).replaceAll("\\D.*", ""));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            throw new AssertionError("the child JVM ended without starting moto");
        });
        try {
            return pid.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the child JVM did not report its moto within 60 s", e);
        }
    }

    @SuppressWarnings("unused")
    private static List<String> classpath() {
        return List.of(System.getProperty("java.class.path").split(File.pathSeparator));
    }
}
