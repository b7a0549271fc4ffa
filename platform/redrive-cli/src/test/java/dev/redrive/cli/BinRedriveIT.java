package dev.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/redrive}, the command the operator docs give, runs the jar this module packages. After the layout move
 * it still looked for {@code cli/target/redrive-cli.jar}, so every operator command failed with "Unable to access
 * jarfile" once its build was done; no test started the CLI the way its docs do.
 */
class BinRedriveIT {

    static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

    @Test
    void theLauncherRunsThePackagedCli() throws Exception {
        ProcessBuilder pb =
                new ProcessBuilder(ROOT.resolve("bin/redrive").toString(), "--help").redirectErrorStream(true);
        pb.environment().put("REDRIVE_CLI_BUILD", "never"); // the jar of this build, never one built by the test
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("Usage: redrive").contains("replay").contains("archive");
    }
}
