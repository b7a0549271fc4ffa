package dev.redrive.localstack.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Questions asked of a page being replaced. Whether the browser has left a page, asked of its old {@code html} element,
 * and whether an element shows a text, asked just after a click that leaves its page. ChromeDriver answers a question about an
 * element of a page being replaced with "stale element reference", as the WebDriver spec says, or now and then with
 * "unknown error: unhandled inspector error: Node with given id does not belong to the document" (SeleniumHQ/selenium
 * issue 15401). Selenium's own {@code stalenessOf} throws on the second, and a CI run's console test failed on it
 * after its click had left the page.
 */
class PageLeftTest {

    /** The message ChromeDriver 156 sent in that CI run, as Selenium's client raised it. */
    static final String NODE_NOT_IN_THE_DOCUMENT = "unknown error: unhandled inspector error: "
            + "{\"code\":-32000,\"message\":\"Node with given id does not belong to the document\"}";

    @Test
    void aPageWhoseElementIsStaleHasBeenLeft() {
        assertThat(HeadlessChromium.pageLeft(answering(new StaleElementReferenceException("stale element reference")))
                        .apply(null))
                .isTrue();
    }

    @Test
    void aPageWhoseElementNoLongerBelongsToTheDocumentHasBeenLeft() {
        WebElement page = answering(new WebDriverException(NODE_NOT_IN_THE_DOCUMENT));
        assertThatThrownBy(() -> ExpectedConditions.stalenessOf(page).apply(null))
                .as("Selenium's stalenessOf, which the console's tests used")
                .hasMessageContaining("does not belong to the document");
        assertThat(HeadlessChromium.pageLeft(page).apply(null)).isTrue();
    }

    @Test
    void aPageStillShownHasNotBeenLeft() {
        assertThat(HeadlessChromium.pageLeft(answering(null)).apply(null)).isFalse();
    }

    @Test
    void anyOtherErrorIsNotTakenForALeftPage() {
        WebElement page = answering(new WebDriverException("chrome not reachable"));
        assertThatThrownBy(() -> HeadlessChromium.pageLeft(page).apply(null))
                .isInstanceOf(WebDriverException.class)
                .hasMessageContaining("chrome not reachable");
    }

    @Test
    void theGoneElementErrorsAreToldFromTheOthers() {
        assertThat(HeadlessChromium.goneFromTheDocument(new StaleElementReferenceException("x")))
                .isTrue();
        assertThat(HeadlessChromium.goneFromTheDocument(new WebDriverException(NODE_NOT_IN_THE_DOCUMENT)))
                .isTrue();
        assertThat(HeadlessChromium.goneFromTheDocument(new WebDriverException(
                        "unknown error: unhandled inspector error: {\"code\":-32000,\"message\":\"No node with given id"
                                + " found\"}")))
                .isTrue();
        assertThat(HeadlessChromium.goneFromTheDocument(new WebDriverException("chrome not reachable")))
                .isFalse();
    }

    @Test
    void aQuestionOfAPageBeingReplacedGetsTheFallbackAndAnyOtherErrorIsThrown() {
        assertThat(HeadlessChromium.orIfGone(() -> "DONE", "gone")).isEqualTo("DONE");
        assertThat(HeadlessChromium.orIfGone(
                        () -> {
                            throw new WebDriverException(NODE_NOT_IN_THE_DOCUMENT);
                        },
                        "gone"))
                .isEqualTo("gone");
        assertThatThrownBy(() -> HeadlessChromium.orIfGone(
                        () -> {
                            throw new WebDriverException("chrome not reachable");
                        },
                        "gone"))
                .hasMessageContaining("chrome not reachable");
    }

    @Test
    void aTextReadFromAPageBeingReplacedIsNotShownYetInsteadOfAFailedWait() {
        WebDriver replaced = finding(answering(new StaleElementReferenceException("stale element reference")));
        Function<WebDriver, Boolean> theOldWait =
                d -> d.findElement(By.id("state")).getText().equals("ARCHIVED");
        assertThatThrownBy(() -> theOldWait.apply(replaced))
                .as("the console test's wait after its click, which a CI run failed on")
                .isInstanceOf(StaleElementReferenceException.class);
        assertThat(HeadlessChromium.textShown(By.id("state"), "ARCHIVED"::equals)
                        .apply(replaced))
                .isFalse();
        assertThat(HeadlessChromium.textShown(By.id("state"), "ARCHIVED"::equals)
                        .apply(finding(answering(new WebDriverException(NODE_NOT_IN_THE_DOCUMENT)))))
                .isFalse();
    }

    @Test
    void aTextIsShownOnceAnElementHoldsItAndAnyOtherErrorFailsTheWait() {
        assertThat(HeadlessChromium.textShown(By.id("state"), "ARCHIVED"::equals)
                        .apply(finding(showing("QUARANTINED"), showing("ARCHIVED"))))
                .isTrue();
        assertThat(HeadlessChromium.textShown(By.id("state"), "ARCHIVED"::equals)
                        .apply(finding(showing("QUARANTINED"))))
                .isFalse();
        assertThat(HeadlessChromium.textShown(By.id("state"), "ARCHIVED"::equals)
                        .apply(finding()))
                .as("no such element yet")
                .isFalse();
        assertThatThrownBy(() -> HeadlessChromium.textShown(By.id("state"), "ARCHIVED"::equals)
                        .apply(finding(answering(new WebDriverException("chrome not reachable")))))
                .hasMessageContaining("chrome not reachable");
    }

    /** An element whose every question is answered with {@code error}, or, when null, as an element still shown. */
    private static WebElement answering(RuntimeException error) {
        return element(error, null);
    }

    /** An element still shown, whose text is {@code text}. */
    private static WebElement showing(String text) {
        return element(null, text);
    }

    private static WebElement element(RuntimeException error, String text) {
        return (WebElement) Proxy.newProxyInstance(
                PageLeftTest.class.getClassLoader(), new Class<?>[] {WebElement.class}, (proxy, method, args) -> {
                    if (error != null) {
                        throw error;
                    }
                    return switch (method.getName()) {
                        case "isEnabled", "isDisplayed" -> true;
                        case "getText" -> text;
                        case "toString" -> "html";
                        default -> null;
                    };
                });
    }

    /** A browser whose every search finds {@code elements}. */
    private static WebDriver finding(WebElement... elements) {
        return (WebDriver) Proxy.newProxyInstance(
                PageLeftTest.class.getClassLoader(),
                new Class<?>[] {WebDriver.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "findElements" -> List.of(elements);
                    case "findElement" -> elements[0];
                    case "toString" -> "browser";
                    default -> null;
                });
    }
}
