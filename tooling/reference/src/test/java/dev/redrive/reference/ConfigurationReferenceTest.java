package dev.redrive.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.ast.expr.StringLiteralExpr;
import dev.redrive.quarkus.RedriveConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/reference/configuration.md} is what {@link RedriveConfig} generates ({@link ConfigurationReference}), every
 * property of the mapping has a doc comment, and the environment variables it lists are the ones Redrive's other
 * readers and writers use: {@code redrive-lambda}'s plain reader ({@code RedriveSettings}, {@code BreakerVariables}) and
 * the CDK constructs ({@code ConsumerEnvironment}).
 */
class ConfigurationReferenceTest {

    static final Path SOURCE =
            Path.of("platform/redrive-quarkus/runtime/src/main/java/dev/redrive/quarkus/RedriveConfig.java");

    static final String REGENERATE = "./mvnw test -pl tooling/reference -am -Dtest=ConfigurationReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dredrive.reference.write=true";

    static final ReferenceFile FILE = new ReferenceFile(Path.of("docs/reference/configuration.md"), REGENERATE);

    /** Above the generated part: what the file is, how to regenerate it, how values and variables are written. */
    static final String HEADER = """
            # Configuration reference

            <!-- Generated from RedriveConfig by ConfigurationReferenceTest (tooling/reference): do not edit. -->

            Every property of a Redrive consumer function, generated from the Quarkus extension's typed mapping,
            [`RedriveConfig`](../../platform/redrive-quarkus/runtime/src/main/java/dev/redrive/quarkus/RedriveConfig.java):
            its name, type, default, environment variable and doc comment. Do not edit it: after changing the mapping,
            regenerate it (`ConfigurationReferenceTest` fails, with the difference, until the committed file is the
            generated one):

            ```
            %s
            ```

            **Where they are read.** A Quarkus function (`redrive-quarkus`) reads each property from its configuration:
            `application.properties`, system properties, or the environment variable, which wins over
            `application.properties`. A plain-Java function (`redrive-lambda`'s `RedriveSettings.fromEnvironment()`)
            reads the same environment variables, with the same defaults. Redrive's CDK constructs set most of them on
            each consumer function, from their props ([CDK constructs reference](cdk-constructs.md)).

            **Environment variables.** A property's variable is its name in upper case, every `.` and `-` an underscore
            (`redrive.claims.record-ttl` is `REDRIVE_CLAIMS_RECORD_TTL`). A map key (`<dependency>`) is written into the
            variable in upper case with underscores for dashes (`redrive.breakers.mail-provider.window` is
            `REDRIVE_BREAKERS_MAIL_PROVIDER_WINDOW`, as the CDK constructs write it), and read back in lower case with
            dashes: SmallRye's environment source cannot tell where a key ends in such a name, so Redrive reads these
            variables itself (`BreakerVariablesSource`, and `BreakerVariables` in a plain-Java function). A key with
            upper-case letters or underscores therefore has no environment variable: name dependencies in lower case
            with dashes, or set their properties in `application.properties`.

            **Values.** A duration is a number of seconds (`30`), a number with a unit (`50ms`, `2s`, `15m`, `1h`,
            `35d`) or ISO-8601 (`PT5S`, `P35D`); a list is comma-separated; an enum is one of its constants.
            """.formatted(REGENERATE);

    static ConfigurationReference reference() {
        return ConfigurationReference.of(RedriveConfig.class, JavaSources.ROOT.resolve(SOURCE));
    }

    @Test
    void theCommittedReferenceIsTheGeneratedOne() {
        FILE.check(reference().markdown(HEADER));
    }

    @Test
    void everyPropertyOfTheMappingHasADocComment() {
        assertThat(reference().undocumented())
                .as("properties (and groups) of RedriveConfig without a doc comment: write one saying what the setting"
                        + " does, its unit and its limits; the reference shows it")
                .isEmpty();
    }

    @Test
    void aPropertyWithoutADocCommentIsNamed() {
        ConfigurationReference fixture = ConfigurationReference.of(
                UndocumentedMapping.class,
                JavaSources.ROOT.resolve(
                        "tooling/reference/src/test/java/dev/redrive/reference/UndocumentedMapping.java"));

        assertThat(fixture.undocumented()).containsExactly("fixture.undocumented (UndocumentedMapping#undocumented())");
    }

    @Test
    void namesTypesDefaultsAndVariablesAreAsSmallRyeAndTheDefaultsSayThem() {
        List<ConfigurationReference.Property> properties = properties();

        assertThat(properties)
                .extracting(p -> p.name() + " " + p.typeText() + " " + p.defaultText() + " " + p.variable())
                .contains(
                        "redrive.build-version `String`, optional none REDRIVE_BUILD_VERSION",
                        "redrive.claims.record-ttl `Duration` `P35D` REDRIVE_CLAIMS_RECORD_TTL",
                        "redrive.claim-checks.readable-buckets `List<String>`, optional none"
                                + " REDRIVE_CLAIM_CHECKS_READABLE_BUCKETS",
                        "redrive.claim-checks.cleanup `ClaimCheckCleanup` (`LIFECYCLE`, `AFTER_APPLY`) `LIFECYCLE`"
                                + " REDRIVE_CLAIM_CHECKS_CLEANUP",
                        "redrive.breakers.table `String` `redrive-control` REDRIVE_BREAKERS_TABLE",
                        "redrive.breakers.<dependency>.cache-ttl `Duration` `5s` REDRIVE_BREAKERS_<DEPENDENCY>_CACHE_TTL");
        assertThat(reference().groups())
                .extracting(ConfigurationReference.Group::prefix)
                .startsWith("redrive", "redrive.claims", "redrive.backoff")
                .containsSubsequence("redrive.breakers", "redrive.breakers.<dependency>", "redrive.claim-checks");
    }

    @Test
    void thePlainReaderReadsEveryPropertyAndNoOther() {
        Set<String> read =
                literals("platform/redrive-lambda/src/main/java/dev/redrive/lambda/RedriveSettings.java").stream()
                        .filter(l -> l.startsWith("redrive."))
                        .collect(Collectors.toCollection(TreeSet::new));
        Set<String> documented = properties().stream()
                .map(ConfigurationReference.Property::name)
                .filter(n -> !n.contains("<"))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(read)
                .as("the properties RedriveSettings.fromEnvironment reads")
                .isEqualTo(documented);
    }

    @Test
    void theBreakerSettingsReadByVariableAreTheMappingsBreakerProperties() {
        Set<String> settings =
                literals("platform/redrive-lambda/src/main/java/dev/redrive/lambda/internal/BreakerVariables.java")
                        .stream()
                        .filter(l -> l.matches("[A-Z][A-Z_]+") && !l.startsWith("REDRIVE_") && !l.equals("TABLE"))
                        .map(s -> "REDRIVE_BREAKERS_<DEPENDENCY>_" + s)
                        .collect(Collectors.toCollection(TreeSet::new));
        Set<String> documented = properties().stream()
                .map(ConfigurationReference.Property::variable)
                .filter(v -> v.contains("<DEPENDENCY>"))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(settings).as("BreakerVariables.SETTINGS").isEqualTo(documented);
    }

    @Test
    void everyVariableTheConstructsSetIsAProperty() {
        Set<String> set =
                literals("platform/redrive-cdk/src/main/java/dev/redrive/cdk/consumer/ConsumerEnvironment.java");
        Set<String> documented = properties().stream()
                .map(ConfigurationReference.Property::variable)
                .collect(Collectors.toSet());

        assertThat(set).as("ConsumerEnvironment's variables").isNotEmpty();
        assertThat(documented).as("the reference's variables").containsAll(set);
    }

    private static List<ConfigurationReference.Property> properties() {
        return reference().groups().stream()
                .flatMap(g -> g.properties().stream())
                .toList();
    }

    /** The string literals of a source file of the repository. */
    private static Set<String> literals(String file) {
        return JavaSources.parse(JavaSources.ROOT.resolve(file)).findAll(StringLiteralExpr.class).stream()
                .map(StringLiteralExpr::asString)
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
