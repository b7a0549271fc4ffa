package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.names.RedriveNames.Metrics;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The alarms and the dashboard read only metrics some function emits: every metric of namespace {@value
 * Metrics#NAMESPACE} named in the synthesized template is one of {@link Metrics#EMITTED} or the checkout's {@code CheckoutNames.Metrics}, the names the functions'
 * metric classes emit with (pinned there by {@code EmittedMetricNamesTest} in the functions).
 */
class MetricNamesTest {

    /** What the platform's functions and the checkout's own emit. */
    static final java.util.Set<String> EMITTED =
            Metrics.union(Metrics.EMITTED, dev.redrive.checkout.CheckoutNames.Metrics.CHECKOUT_EMITTED);

    /** {@code ["Redrive","Processed",...]} in a dashboard widget's metrics. */
    private static final Pattern DASHBOARD_METRIC =
            Pattern.compile("\\[\"" + Pattern.quote(Metrics.NAMESPACE) + "\",\"([^\"]+)\"");
    /** {@code MetricName=\"Quarantined\"} in a SEARCH expression. */
    private static final Pattern SEARCHED_METRIC = Pattern.compile("MetricName=\\\\?\"([^\"\\\\]+)\\\\?\"");

    private final TemplateView t = Synth.defaults();

    @Test
    void everyAlarmOnARedriveMetricReadsOneAFunctionEmits() {
        Set<String> alarmed = new TreeSet<>();
        for (Map<String, Object> alarm : t.resources("AWS::CloudWatch::Alarm").values()) {
            Map<String, Object> p = map(alarm, "Properties");
            if (Metrics.NAMESPACE.equals(p.get("Namespace"))) {
                alarmed.add((String) p.get("MetricName"));
            }
            // a metric-math alarm: the metrics its expression reads
            for (Object query : p.get("Metrics") instanceof List<?> queries ? queries : List.of()) {
                Object stat = ((Map<?, ?>) query).get("MetricStat");
                if (stat instanceof Map<?, ?> metricStat
                        && metricStat.get("Metric") instanceof Map<?, ?> metric
                        && Metrics.NAMESPACE.equals(metric.get("Namespace"))) {
                    alarmed.add((String) metric.get("MetricName"));
                }
            }
        }

        assertThat(alarmed)
                .as("the sweeper's alarms are found, the metric-math one included")
                .contains(Metrics.OLDEST_UNRESOLVED_QUARANTINE_AGE, Metrics.REPLAYED, Metrics.REPLAYS_RETURNED);
        assertThat(EMITTED).containsAll(alarmed);
    }

    @Test
    void theDashboardChartsOnlyMetricsAFunctionEmits() {
        String body = dashboardBody();
        Set<String> charted = new TreeSet<>();
        collect(DASHBOARD_METRIC, body, charted);
        collect(SEARCHED_METRIC, body, charted);

        assertThat(charted)
                .as("both the plain metrics and the SEARCH expressions are found")
                .contains(Metrics.PROCESSED, Metrics.DUPLICATES, Metrics.DEAD_LETTERED, Metrics.QUARANTINED);
        assertThat(EMITTED).containsAll(charted);
    }

    /** The dashboard's JSON text, with every reference (queue names, the region) as a placeholder. */
    private String dashboardBody() {
        Map<String, Map<String, Object>> dashboards = t.resources("AWS::CloudWatch::Dashboard");
        assertThat(dashboards).hasSize(1);
        Object body = map(dashboards.values().iterator().next(), "Properties").get("DashboardBody");
        if (body instanceof String text) {
            return text;
        }
        List<?> join = (List<?>) ((Map<?, ?>) body).get("Fn::Join");
        StringBuilder text = new StringBuilder();
        for (Object part : (List<?>) join.get(1)) {
            text.append(part instanceof String s ? s : "<ref>");
        }
        return text.toString();
    }

    private static void collect(Pattern pattern, String text, Set<String> into) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }
}
