package dev.redrive.localrun.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.redrive.localstack.browser.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The HTML report draws every chart of its timeline, with every sample, in a real browser: headless Chromium loads
 * the static page (no server, no network) and the DOM after its scripts ran holds an SVG per chart and a polyline per
 * series. Without Chromium and its driver the test fails saying what to install (bin/check-prerequisites names them).
 */
class HtmlReportRendersInAHeadlessBrowserTest {

    @Test
    void everyChartAndEverySeriesIsDrawnWithAllItsSamples() throws Exception {
        Timeline timeline = new Timeline(List.of(
                new Timeline.Chart("depth", "Queue depth", "messages", List.of("source", "DLQ")),
                new Timeline.Chart("faults", "Injected faults </script><b>", "injections", List.of("kill"))));
        for (int i = 0; i < 5; i++) {
            timeline.sample(
                    2.0 * i,
                    Map.of("depth", Map.of("source", 100 - 20 * i, "DLQ", i), "faults", Map.of("kill", 3 * i)));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("checks", Map.of("nothing lost", true, "no write by a stale token accepted", false));
        report.put(
                "tables",
                List.of(Map.of(
                        "title", "Checker", "columns", List.of("line", "value"), "rows", List.of(List.of("lost", 0)))));
        report.put("timeline", timeline.toMap());
        Path dir = Files.createDirectories(Path.of("target", "html-report-test"));
        Path page = dir.resolve("report.html");
        HtmlReport.write(page, "Chaos <run>", report);

        ChromeDriver browser = HeadlessChromium.start(1280, 900);
        String dom;
        try {
            browser.get(page.toUri().toString());
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "true"
                            .equals(browser.findElement(By.tagName("body")).getDomAttribute("data-rendered")));
            dom = browser.getPageSource();
        } finally {
            browser.quit();
        }

        assertThat(dom).contains("data-rendered=\"true\"");
        assertThat(count(dom, "<svg[^>]*data-chart=\"depth\"[^>]*data-samples=\"5\""))
                .isEqualTo(1);
        assertThat(count(dom, "<svg[^>]*data-chart=\"faults\"")).isEqualTo(1);
        assertThat(count(dom, "<polyline[^>]*data-points=\"5\"")).isEqualTo(3);
        assertThat(dom).contains("data-series=\"source\"", "data-series=\"DLQ\"", "data-series=\"kill\"");
        assertThat(dom).contains("data-last=\"12\"");
        assertThat(dom).contains("data-check=\"nothing lost\"").contains(">FAIL<");
        assertThat(dom).as("a title with markup is text, not markup").contains("Injected faults &lt;/script&gt;");
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
