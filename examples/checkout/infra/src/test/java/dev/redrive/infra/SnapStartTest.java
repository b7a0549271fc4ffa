package dev.redrive.infra;

import static dev.redrive.infra.TemplateView.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.checkout.CheckoutNames;
import dev.redrive.core.names.RedriveNames.Handlers;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Cold starts: every JVM function runs SnapStart on a published version, its alias {@code live} points at that
 * version, and every trigger (the consumers' and the relay's mappings, the schedules and their asynchronous settings,
 * the Function URL) invokes the alias, never {@code $LATEST}; the JVM artifact runs on arm64 by default; the native
 * runtime is unchanged.
 */
class SnapStartTest {

    static final List<String> HANDLERS = List.of(
            CheckoutNames.CONFIRMATION_EMAIL,
            CheckoutNames.REVENUE_ANALYTICS,
            Handlers.DLQ_SWEEPER,
            CheckoutNames.CHECKOUT,
            CheckoutNames.OUTBOX_RELAY,
            CheckoutNames.OUTBOX_SWEEPER,
            CheckoutNames.CHECKOUT_RECONCILIATION);

    private final TemplateView t = Synth.defaults();

    /** The alias of each function, by function logical id. */
    private static Map<String, String> aliases(TemplateView view) {
        return view.resources("AWS::Lambda::Alias").entrySet().stream()
                .collect(Collectors.toMap(
                        e -> String.valueOf(map(map(e.getValue(), "Properties"), "FunctionName")
                                .get("Ref")),
                        Map.Entry::getKey));
    }

    /** How CDK names the alias where a function name is expected: the name from its ARN, then {@code :live}. */
    private static Map<String, Object> qualifiedName(String alias) {
        return Map.of(
                "Fn::Join",
                List.of(
                        "",
                        List.of(
                                Map.of(
                                        "Fn::Select",
                                        List.of(6, Map.of("Fn::Split", List.of(":", Map.of("Ref", alias))))),
                                ":live")));
    }

    @Test
    void everyJvmFunctionRunsSnapStartOnArm64WithItsLiveAliasOnItsCurrentVersion() {
        Map<String, String> aliases = aliases(t);
        for (String handler : HANDLERS) {
            String function = t.function(handler);
            assertThat(t.properties(function))
                    .as(handler)
                    .containsEntry("Runtime", "java21")
                    .containsEntry("SnapStart", Map.of("ApplyOn", "PublishedVersions"))
                    .containsEntry("Architectures", List.of("arm64"));
            assertThat(aliases).as(handler + " has its alias").containsKey(function);
            Map<String, Object> alias = t.properties(aliases.get(function));
            assertThat(alias.get("Name")).isEqualTo("live");
            String version =
                    String.valueOf(((List<?>) map(alias, "FunctionVersion").get("Fn::GetAtt")).get(0));
            assertThat(t.resource(version).get("Type")).isEqualTo("AWS::Lambda::Version");
            assertThat(map(t.properties(version), "FunctionName")).isEqualTo(Map.of("Ref", function));
        }
        assertThat(t.resources("AWS::Lambda::Alias")).hasSize(HANDLERS.size());
        assertThat(t.resources("AWS::Lambda::Version")).hasSize(HANDLERS.size());
    }

    @Test
    void everyEventSourceMappingInvokesTheAliasOfItsFunction() {
        Map<String, String> aliases = aliases(t);
        var mappings = t.resources("AWS::Lambda::EventSourceMapping");
        assertThat(mappings).as("two consumers and the relay").hasSize(3);
        List<Object> invoked = mappings.values().stream()
                .map(m -> map(m, "Properties").get("FunctionName"))
                .toList();
        assertThat(invoked)
                .containsExactlyInAnyOrder(
                        qualifiedName(aliases.get(t.function(CheckoutNames.CONFIRMATION_EMAIL))),
                        qualifiedName(aliases.get(t.function(CheckoutNames.REVENUE_ANALYTICS))),
                        qualifiedName(aliases.get(t.function(CheckoutNames.OUTBOX_RELAY))));
    }

    @Test
    void everyScheduleInvokesTheAliasAndItsAsyncSettingsAreTheAliass() {
        Map<String, String> aliases = aliases(t);
        var schedules = t.resources("AWS::Scheduler::Schedule");
        assertThat(schedules)
                .as("the sweeper, the outbox sweep, the reconciliation")
                .hasSize(3);
        List<Object> targets = schedules.values().stream()
                .map(s -> map(map(s, "Properties"), "Target").get("Arn"))
                .toList();
        assertThat(targets)
                .containsExactlyInAnyOrder(
                        Map.of("Ref", aliases.get(t.function(Handlers.DLQ_SWEEPER))),
                        Map.of("Ref", aliases.get(t.function(CheckoutNames.OUTBOX_SWEEPER))),
                        Map.of("Ref", aliases.get(t.function(CheckoutNames.CHECKOUT_RECONCILIATION))));
        var configs = t.resources("AWS::Lambda::EventInvokeConfig");
        assertThat(configs).hasSize(3);
        configs.values().forEach(c -> {
            Map<String, Object> props = map(c, "Properties");
            String function = String.valueOf(map(props, "FunctionName").get("Ref"));
            assertThat(props.get("Qualifier"))
                    .as("no retries and the stale-run cutoff apply to what the schedule invokes")
                    .isEqualTo(Map.of(
                            "Fn::Select",
                            List.of(7, Map.of("Fn::Split", List.of(":", Map.of("Ref", aliases.get(function)))))));
        });
    }

    @Test
    void theFunctionUrlIsTheCheckoutAliassAndNoPermissionOrPolicyNamesLatest() {
        Map<String, String> aliases = aliases(t);
        String checkout = t.function(CheckoutNames.CHECKOUT);
        var urls = t.resources("AWS::Lambda::Url");
        assertThat(urls).hasSize(1);
        Map<String, Object> url = map(urls.values().iterator().next(), "Properties");
        assertThat(url.get("Qualifier")).isEqualTo("live");
        assertThat(String.valueOf(url.get("TargetFunctionArn"))).contains(checkout);
        assertThat(t.resources("AWS::Lambda::Permission").values())
                .as("any invoke permission is on an alias")
                .allSatisfy(p -> assertThat(String.valueOf(map(p, "Properties").get("FunctionName")))
                        .containsAnyOf(aliases.values().toArray(String[]::new)));
        assertThat(aliases).containsKey(checkout);
    }

    @Test
    void theNativeRuntimeIsUnchangedNoSnapStartNoVersionsOnX86ByDefault() {
        TemplateView nativeStack = Synth.template(Map.of("runtime", "native"));

        for (String handler : HANDLERS) {
            assertThat(nativeStack.properties(nativeStack.function(handler)))
                    .as(handler)
                    .containsEntry("Runtime", "provided.al2023")
                    .containsEntry("Architectures", List.of("x86_64"))
                    .doesNotContainKey("SnapStart");
        }
        assertThat(nativeStack.resources("AWS::Lambda::Alias")).isEmpty();
        assertThat(nativeStack.resources("AWS::Lambda::Version")).isEmpty();
        String email = nativeStack.function(CheckoutNames.CONFIRMATION_EMAIL);
        assertThat(nativeStack.resources("AWS::Lambda::EventSourceMapping").values().stream()
                        .map(m -> map(m, "Properties").get("FunctionName"))
                        .toList())
                .contains(Map.of("Ref", email));
    }

    @Test
    void x86StaysSelectableForTheJvmArtifact() {
        TemplateView x86 = Synth.template(Map.of("architecture", "x86_64"));

        assertThat(x86.properties(x86.function(CheckoutNames.CHECKOUT)))
                .containsEntry("Architectures", List.of("x86_64"))
                .containsEntry("SnapStart", Map.of("ApplyOn", "PublishedVersions"));
    }
}
