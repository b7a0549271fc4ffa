package dev.redrive.core.operator;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The guard every interface applies before a replay: POISON and PERMANENT dead letters still to be replayed are refused
 * unless their class is allowed, then warned about with why they failed; resolved ones are left to the replay.
 */
class ReplayClassGuardTest {

    final SweeperFixture f = new SweeperFixture();
    final OperatorPort operator = f.operator().build();
    List<QuarantineRecord> records;

    @BeforeEach
    void quarantine() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached("t|x", FailureClass.TRANSIENT, "Timeout", "mail", T0));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("p1|x", FailureClass.POISON, "Crashed", null, T0));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("p2|x", FailureClass.POISON, "Crashed", null, T0));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("r|x", FailureClass.PERMANENT, "Rule", null, T0));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("s|x", FailureClass.SCHEMA, "Old", null, T0));
        f.clock.advance(Duration.ofSeconds(2));
        f.sweep();
        records = operator.list(QuarantineQuery.waiting(10));
        assertThat(records).hasSize(5);
    }

    @Test
    void withNothingAllowedEveryGuardedDeadLetterIsRefusedNamingWhyItFailed() {
        ReplayClassGuard.Verdict v = ReplayClassGuard.none().check(records);

        assertThat(v.passes()).isFalse();
        assertThat(v.refused())
                .hasSize(3)
                .extracting(ReplayClassGuard.Flagged::failureClass)
                .containsExactlyInAnyOrder(FailureClass.POISON, FailureClass.POISON, FailureClass.PERMANENT);
        assertThat(v.warned()).isEmpty();
        assertThat(v.refusedClasses()).containsExactly(FailureClass.PERMANENT, FailureClass.POISON);
        assertThat(v.refusal())
                .isEqualTo("3 of 5 dead letter(s) failed as PERMANENT,POISON, and a replay fails the same way unless "
                        + "the cause was fixed");
        assertThat(v.refused())
                .filteredOn(r -> r.failureClass() == FailureClass.PERMANENT)
                .singleElement()
                .satisfies(r -> assertThat(r.why()).isEqualTo("Rule: Rule happened"));
    }

    @Test
    void anAllowedClassPassesWithAWarningPerDeadLetterTheOtherIsStillRefused() {
        ReplayClassGuard.Verdict v = new ReplayClassGuard(Set.of(FailureClass.POISON)).check(records);

        assertThat(v.passes()).isFalse();
        assertThat(v.refused())
                .extracting(ReplayClassGuard.Flagged::failureClass)
                .containsExactly(FailureClass.PERMANENT);
        assertThat(v.warned())
                .hasSize(2)
                .allSatisfy(w -> assertThat(w.warning())
                        .contains("failed as POISON (Crashed: Crashed happened)")
                        .endsWith("it fails the same way unless the cause was fixed"));

        assertThat(new ReplayClassGuard(ReplayClassGuard.GUARDED).check(records).passes())
                .isTrue();
    }

    @Test
    void aResolvedGuardedDeadLetterIsLeftToTheReplay() {
        String poison = records.stream()
                .filter(r -> r.classification().failureClass() == FailureClass.POISON)
                .findFirst()
                .orElseThrow()
                .id();
        operator.archive(List.of(poison), Actor.person("ada"), "not wanted", false);

        ReplayClassGuard.Verdict v = ReplayClassGuard.none()
                .check(operator.list(QuarantineQuery.waiting(10)).stream().toList());
        assertThat(v.refused()).hasSize(2);
        assertThat(ReplayClassGuard.none()
                        .check(List.of(operator.show(poison).orElseThrow()))
                        .passes())
                .as("ARCHIVED already")
                .isTrue();
    }

    @Test
    void onlyGuardedClassesCanBeAllowed() {
        assertThatThrownBy(() -> new ReplayClassGuard(Set.of(FailureClass.TRANSIENT)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("only POISON or PERMANENT need allowing; TRANSIENT dead letters are replayed without it");
    }
}
