package dev.redrive.localrun.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.redrive.localstack.browser.HeadlessChromium;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The report's charts in a real browser (Debian's headless Chromium driven by its chromedriver through Selenium) at
 * common window widths: each chart is drawn no wider than its column, its last time label ends inside it (the time
 * axis is not cut off), and a chart of counts has whole-number ticks. The browser and the driver are Debian's, set
 * explicitly (nothing is downloaded); without them the test fails saying what to install.
 */
class HtmlReportChartsFitTheirColumnTest {

    @TempDir
    static Path dir;

    static ChromeDriver browser;
    static Path page;

    @BeforeAll
    static void openTheBrowserOnAReport() throws Exception {
        page = dir.resolve("report.html");
        HtmlReport.write(page, "Charts at common widths", report());
        browser = HeadlessChromium.start(1280, 900);
    }

    @AfterAll
    static void closeTheBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    /**
     * A chaos run's charts as {@code ChaosSampler} makes them: counts that reach a few hundred and counts that stay
     * under five (a naive axis labels those 1.2, 2.5...), a measurement in seconds, and a time axis past 1,000 s.
     */
    private static Map<String, Object> report() {
        Timeline timeline = new Timeline(List.of(
                Timeline.Chart.ofCounts("depth", "Queue depth", "messages", List.of("source", "DLQ")),
                Timeline.Chart.ofCounts("faults", "Injected faults (cumulative)", "injections", List.of("kill")),
                new Timeline.Chart("age", "Age of the oldest message not done yet", "s", List.of("source"))));
        for (int i = 0; i <= 600; i++) {
            timeline.sample(
                    2.0 * i,
                    Map.of(
                            "depth", Map.of("source", Math.max(0, 437 - i), "DLQ", i / 40),
                            "faults", Map.of("kill", Math.min(3, i / 100)),
                            "age", Map.of("source", 0.37 * (i % 50))));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("checks", Map.of("nothing lost", true));
        report.put("timeline", timeline.toMap());
        return report;
    }

    @ParameterizedTest(name = "at {0} px")
    @ValueSource(ints = {1024, 1280, 1440, 1920})
    void everyChartFitsItsColumnWithItsWholeTimeAxisAndCountsHaveWholeNumberTicks(int width) {
        browser.manage().window().setSize(new Dimension(width, 900));
        browser.get(page.toUri().toString());
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        "true".equals(browser.findElement(By.tagName("body")).getDomAttribute("data-rendered")));
        // the window's size as the page sees it (the drawing follows a resize on the next animation frame)
        JavascriptExecutor js = browser;
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(
                                js.executeScript(
                                        "return Array.from(document.querySelectorAll('.chart')).map(function (c) {"
                                                + " var s = c.querySelector('svg'); return s.getBoundingClientRect().width"
                                                + " <= c.getBoundingClientRect().width + 0.5 ? 'fits'"
                                                + " : s.getBoundingClientRect().width + ' > ' + c.getBoundingClientRect().width; });"))
                        .as("each chart's drawn width against its column's, in the page at %d px", width)
                        .isEqualTo(List.of("fits", "fits", "fits")));

        List<WebElement> charts = browser.findElements(By.cssSelector(".chart"));
        assertThat(charts).hasSize(3);
        List<String> countTicks = new ArrayList<>();
        for (WebElement chart : charts) {
            WebElement svg = chart.findElement(By.tagName("svg"));
            String id = svg.getDomAttribute("data-chart");
            double column = chart.getRect().getWidth();
            double drawn = svg.getRect().getWidth();
            assertThat(drawn)
                    .as("%s at %d px: drawn width within its column (%s px)", id, width, column)
                    .isLessThanOrEqualTo(column)
                    .isGreaterThan(column * 0.9);
            @SuppressWarnings("unchecked")
            Map<String, Number> box = (Map<String, Number>) js.executeScript(
                    "var s = arguments[0], ticks = s.querySelectorAll('text.t-tick'), last = ticks[ticks.length - 1];"
                            + " var l = last.getBoundingClientRect(), r = s.getBoundingClientRect();"
                            + " return {right: l.right, svgRight: r.right, text: 0};",
                    svg);
            List<WebElement> timeTicks = svg.findElements(By.cssSelector("text.t-tick"));
            assertThat(timeTicks.get(timeTicks.size() - 1).getText()).isEqualTo("1200 s");
            assertThat(box.get("right").doubleValue())
                    .as("%s at %d px: the last time label ends inside the chart", id, width)
                    .isLessThanOrEqualTo(box.get("svgRight").doubleValue());
            List<String> yTicks = svg.findElements(By.cssSelector("text.y-tick")).stream()
                    .map(WebElement::getText)
                    .toList();
            if ("true".equals(svg.getDomAttribute("data-counts"))) {
                assertThat(yTicks)
                        .as("%s at %d px: whole-number ticks", id, width)
                        .hasSizeGreaterThanOrEqualTo(2)
                        .allMatch(t -> t.matches("\\d+"));
                assertThat(yTicks).doesNotHaveDuplicates();
                countTicks.addAll(yTicks);
            } else {
                assertThat(id).isEqualTo("age");
            }
        }
        assertThat(countTicks).as("the few-faults chart's ticks").contains("0", "1", "2", "3");
    }
}
