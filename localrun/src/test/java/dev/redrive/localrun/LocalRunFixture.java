package dev.redrive.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.localstack.LocalAws;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What every test that starts the whole local system shares: where the built modules are, and the start itself, on
 * this test JVM's one local AWS with its state reset.
 */
final class LocalRunFixture {

    /** The repository's root (the tests run in {@code localrun/}). */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private LocalRunFixture() {}

    /** The demo stack's template, as the infra module synthesizes it. */
    static Path demoTemplate() {
        Path template = ROOT.resolve("infra/target/cdk.out/Redrive.template.json");
        assertThat(template)
                .as("the template: build infra first (./mvnw -pl infra package)")
                .exists();
        return template;
    }

    /** The functions module's target folder, holding the packaged artifact. */
    static Path packagedFunctions() throws IOException {
        Path functions = ROOT.resolve("functions/target");
        try (Stream<Path> files = Files.list(functions)) {
            assertThat(files.anyMatch(p -> p.getFileName().toString().endsWith("-runner.jar")))
                    .as("the packaged functions: build them first (./mvnw -pl functions package)")
                    .isTrue();
        }
        return functions;
    }

    /** Starts the system on the shared local AWS, reset first, its progress lines going nowhere. */
    static LocalSystem start(RunOptions options) throws Exception {
        return start(options, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    /** Starts the system on the shared local AWS, reset first, its progress lines going to {@code progress}. */
    static LocalSystem start(RunOptions options, PrintStream progress) throws Exception {
        LocalAws aws = LocalAws.shared();
        aws.reset();
        return LocalSystem.start(options, new Progress(progress), aws, false);
    }
}
