package dev.redrive.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The equality check fails on any difference, shows it as a diff and names the command; the write mode writes. */
class ReferenceFileTest {

    @Test
    void aDifferenceFailsWithTheDiffAndTheCommand(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("reference.md");
        Files.writeString(file, "# Title\n\nkept\nold line\nkept too\n");
        ReferenceFile reference = new ReferenceFile(file, "./regenerate", false);

        assertThatThrownBy(() -> reference.check("# Title\n\nkept\nnew line\nkept too\n"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("is not what the code generates")
                .hasMessageContaining("@@ -4,1 +4,1 @@\n-old line\n+new line\n")
                .hasMessageContaining("Regenerate it (and commit the result):\n  ./regenerate");
        reference.check("# Title\n\nkept\nold line\nkept too\n");
    }

    @Test
    void aMissingFileOrFinalNewlineIsADifference(@TempDir Path dir) throws IOException {
        assertThat(ReferenceFile.difference("a\nb\n", "a\nb"))
                .hasValueSatisfying(d -> assertThat(d).contains("line endings or the final newline"));
        assertThatThrownBy(() -> new ReferenceFile(dir.resolve("absent.md"), "./regenerate", false).check("a\n"))
                .hasMessageContaining("+a");
    }

    @Test
    void theWriteModeWritesTheGeneratedText(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("sub/reference.md");
        new ReferenceFile(file, "./regenerate", true).check("generated\n");

        assertThat(Files.readString(file)).isEqualTo("generated\n");
    }
}
