package dev.redrive.cdk.monitoring.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.breaker.BreakerState.Status;
import dev.redrive.core.breaker.BreakerTransition;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's breaker history and the consumers' log line of a transition agree: the widget's {@code parse} glob,
 * read as Logs Insights reads one (each {@code *} captures; the last runs to the end of the line), takes the
 * dependency, both states, the token and the reason out of a line as the functions' console format writes it.
 */
class BreakerHistoryQueryTest {

    @Test
    void theParseGlobTakesEveryFieldOutOfATransitionsLogLine() {
        String reason = "5 transient failures in a row in one sandbox (the limit is 5): open for PT30S";
        String line = "02:10:00.123 INFO  [de.re.breaker] "
                + new BreakerTransition(7, Instant.parse("2026-12-04T02:10:00Z"), Status.CLOSED, Status.OPEN, reason)
                        .logLine("email-provider");

        Matcher m = asInsightsReadsIt(glob()).matcher(line);

        assertThat(m.matches()).as("%s against %s", line, glob()).isTrue();
        assertThat(List.of(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)))
                .containsExactly("email-provider", "CLOSED", "OPEN", "7", reason);
    }

    @Test
    void theQueryKeepsOnlyTransitionLinesNewestFirst() {
        assertThat(RedriveDashboard.breakerHistoryQuery())
                .contains("filter @message like \"" + BreakerTransition.LOG_MARKER + "\"", "sort @timestamp desc");
    }

    private static String glob() {
        String parse = RedriveDashboard.breakerHistoryQuery().stream()
                .filter(q -> q.startsWith("parse "))
                .findFirst()
                .orElseThrow();
        return parse.substring(parse.indexOf('"') + 1, parse.lastIndexOf('"'));
    }

    private static Pattern asInsightsReadsIt(String glob) {
        List<String> parts =
                Arrays.stream(glob.split("\\*", -1)).map(Pattern::quote).toList();
        String captures = String.join("(.*?)", parts.subList(0, parts.size() - 1));
        return Pattern.compile(".*?" + captures + "(.*)" + parts.get(parts.size() - 1));
    }
}
