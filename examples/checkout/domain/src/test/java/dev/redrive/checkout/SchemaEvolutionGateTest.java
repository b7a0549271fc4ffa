package dev.redrive.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.core.schema.Upcaster;
import dev.redrive.core.schema.UpcasterChain;
import dev.redrive.schema.SchemaEvolution;
import dev.redrive.schema.SchemaEvolutionGate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The schema-evolution gate, as the build runs it: {@link #theCheckoutsEventSchemasOnlyEvolveCompatibly} fails the
 * build when a new version of an event schema breaks version N without a verified upcaster. To gate your own schemas,
 * copy that test and point it at your schema folder and your upcasters. {@code -Dredrive.schemas.dir=<folder>} runs
 * it on another folder (the fixtures below, say).
 */
class SchemaEvolutionGateTest {

    static final Path FIXTURES = Path.of("src/test/resources/schema-fixtures");

    @Test
    void theCheckoutsEventSchemasOnlyEvolveCompatibly() {
        Path schemas = Path.of(System.getProperty("redrive.schemas.dir", "../contract/src/main/resources/schemas"));

        List<String> problems = new SchemaEvolutionGate(CheckoutSchemaGate.upcasters()).check(schemas);

        assertThat(problems)
                .as("breaking changes between event schema versions in %s", schemas)
                .isEmpty();
    }

    @Test
    void aRenamedFieldFailsNamingTheFieldAndTheRule() {
        List<String> problems = gate().check(FIXTURES.resolve("renamed"));

        assertThat(problems)
                .containsExactly(
                        "Signup v2 against v1: $.email: present in the older version, gone (a field may not be "
                                + "removed or renamed); a new version may only add optional fields: make this a new "
                                + "event type, or register an upcaster from v1 to v2",
                        "Signup v2 against v1: $.emailAddress: added as a required field (a new field may not be "
                                + "required); a new version may only add optional fields: make this a new event "
                                + "type, or register an upcaster from v1 to v2");
    }

    @Test
    void addingOptionalFieldsPasses() {
        assertThat(gate().check(FIXTURES.resolve("additive"))).isEmpty();
    }

    @Test
    void everyRuleIsNamed() {
        List<String> problems = gate().check(FIXTURES.resolve("every-rule"));

        assertThat(problems).hasSize(4);
        assertThat(problems.get(0)).contains("$.age: type [integer] became [number] (a field may not change type)");
        assertThat(problems.get(1)).contains("$.tags[]: type [string] became [integer] (a field may not change type)");
        assertThat(problems.get(2))
                .contains("$.nickname: optional in the older version, now required (an optional field may not "
                        + "become required)");
        assertThat(problems.get(3)).contains("$.country: added as a required field (a new field may not be required)");
    }

    @Test
    void aBreakingChangePassesOnlyWithARegisteredUpcasterThatTurnsEveryExampleIntoAValidEvent() {
        Upcaster renames = upcaster(v1 -> {
            Map<String, Object> v2 = new LinkedHashMap<>(v1);
            v2.put("emailAddress", v2.remove("email"));
            v2.put("version", 2);
            return v2;
        });
        Upcaster forgets = upcaster(v1 -> {
            Map<String, Object> v2 = new LinkedHashMap<>(v1);
            v2.remove("email");
            v2.put("version", 2);
            return v2;
        });

        assertThat(new SchemaEvolutionGate(new UpcasterChain(List.of(renames))).check(FIXTURES.resolve("renamed")))
                .isEmpty();
        assertThat(new SchemaEvolutionGate(new UpcasterChain(List.of(forgets))).check(FIXTURES.resolve("renamed")))
                .singleElement()
                .asString()
                .startsWith("Signup upcaster v1 to v2 turns example 1 of v1 into an event that fails v2: $ breaks "
                        + "'required'");
    }

    @Test
    void theOrderPlacedMoneyMigrationIsBreakingAndCoveredByItsUpcaster() {
        var json = new ObjectMapper();
        Path dir = Path.of("../contract/src/main/resources/schemas/OrderPlaced");

        List<SchemaEvolution.BreakingChange> changes;
        try {
            changes = SchemaEvolution.breakingChanges(
                    json.readTree(dir.resolve("v1.json").toFile()),
                    json.readTree(dir.resolve("v2.json").toFile()));
        } catch (IOException e) {
            throw new AssertionError(e);
        }

        assertThat(changes)
                .extracting(SchemaEvolution.BreakingChange::field)
                .contains("$.customerEmail", "$.totalCents", "$.currency", "$.customer", "$.total");
        assertThat(gate().check(Path.of("../contract/src/main/resources/schemas")))
                .as("without the upcaster the migration fails the gate")
                .isNotEmpty();
    }

    private static SchemaEvolutionGate gate() {
        return new SchemaEvolutionGate(new UpcasterChain(List.of()));
    }

    private static Upcaster upcaster(UnaryOperator<Map<String, Object>> step) {
        return new Upcaster() {
            @Override
            public String eventType() {
                return "Signup";
            }

            @Override
            public int fromVersion() {
                return 1;
            }

            @Override
            public Map<String, Object> upcast(Map<String, Object> event) {
                return step.apply(event);
            }
        };
    }
}
