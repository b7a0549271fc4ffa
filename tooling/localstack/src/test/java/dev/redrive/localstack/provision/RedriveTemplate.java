package dev.redrive.localstack.provision;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/** The template that infra synthesizes, which the local AWS is provisioned from. */
final class RedriveTemplate {

    static final Path PATH =
            Path.of("..", "..", "examples", "checkout", "infra", "target", "cdk.out", "Redrive.template.json");

    private RedriveTemplate() {}

    /** The template file; fails the test with the command that makes it when it is missing. */
    static Path path() {
        if (!Files.isRegularFile(PATH)) {
            fail(
                    "no synthesized template at " + PATH.toAbsolutePath().normalize()
                            + ": build infra first (./mvnw -pl examples/checkout/infra package), or run the whole build (./mvnw verify)");
        }
        return PATH;
    }
}
