package dev.redrive.localrun.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium (Debian's {@code chromium} package) loading a local page and printing its DOM after the page's
 * scripts ran: a screenshot-free check that a report renders. Absent on machines without the package.
 */
public final class HeadlessChromium {

    private HeadlessChromium() {}

    /** The browser's executable, if one is installed. */
    public static Optional<Path> find() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    /** Loads {@code page} (no network: a file, with a fresh profile) and returns the DOM after its scripts ran. */
    public static String dumpDom(Path browser, Path page) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(page.toAbsolutePath().getParent(), "chromium-profile-");
        Path out = Files.createTempFile(page.toAbsolutePath().getParent(), "dom-", ".html");
        Process p = new ProcessBuilder(
                        browser.toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-background-networking",
                        "--no-first-run",
                        "--user-data-dir=" + profile,
                        "--dump-dom",
                        page.toAbsolutePath().toUri().toString())
                .redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("chromium did not finish loading " + page + " within 120 s");
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
