package dev.redrive.core.operator;

import static dev.redrive.testing.sweeper.SweeperFixture.ROUTE;
import static dev.redrive.testing.sweeper.SweeperFixture.T0;
import static dev.redrive.testing.sweeper.SweeperFixture.attached;
import static dev.redrive.testing.sweeper.SweeperFixture.redriven;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.AuditEntry;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.testing.sweeper.SweeperFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LedgerOperatorTest {

    final SweeperFixture f = new SweeperFixture();
    final OperatorPort operator = f.operator().build();
    final Actor ada = Actor.person("ada");

    @BeforeEach
    void quarantine() {
        f.dlq.add(ROUTE.deadLetterQueue(), attached("p1|x", FailureClass.PERMANENT, "CardDeclined", null, T0));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("v1:s1|x", FailureClass.SCHEMA, "OutdatedVersion", null, T0));
        f.dlq.add(ROUTE.deadLetterQueue(), attached("v0:s0|x", FailureClass.SCHEMA, "UnknownVersion", null, T0));
        f.dlq.add(ROUTE.deadLetterQueue(), redriven("crash|x", 5));
        f.windows.add(new MaintenanceWindow("w", "payments", T0.minusSeconds(3600), T0.plusSeconds(1), "a", ""));
        f.clock.advance(Duration.ofSeconds(2));
        f.sweep();
    }

    @Test
    void poisonAndPermanentNeverAutoReplayEvenInsideAWindowAndWaitForAPerson() {
        List<QuarantineRecord> waiting = operator.list(QuarantineQuery.waiting(10));

        assertThat(waiting).hasSize(4);
        assertThat(f.sender.sent()).isEmpty();
        assertThat(operator.list(new QuarantineQuery(
                        Optional.empty(),
                        Set.of(),
                        Set.of(FailureClass.POISON),
                        Optional.empty(),
                        Optional.empty(),
                        10)))
                .singleElement()
                .satisfies(r -> assertThat(r.classification().errorType()).isEqualTo("NoFailureRecorded"));
        assertThat(operator.list(new QuarantineQuery(
                        Optional.of("elsewhere"), Set.of(), Set.of(), Optional.empty(), Optional.empty(), 10)))
                .isEmpty();
        assertThat(operator.list(new QuarantineQuery(
                        Optional.empty(), Set.of(), Set.of(), Optional.of(Duration.ofDays(1)), Optional.empty(), 10)))
                .isEmpty();
    }

    @Test
    void anApprovedReplayRunsTheSameChecksAndNamesThePerson() {
        QuarantineRecord v1 = only("UnknownVersion", false);
        QuarantineRecord old = only("OutdatedVersion", true);

        Map<String, ReplayOutcome> dry = operator.approveReplay(List.of(old.id(), v1.id()), ada, "check", true);
        assertThat(f.sender.sent()).as("a dry run sends nothing").isEmpty();
        assertThat(dry.get(old.id())).isInstanceOf(ReplayOutcome.Sent.class);
        assertThat(dry.get(v1.id())).isInstanceOf(ReplayOutcome.Refused.class);

        Map<String, ReplayOutcome> done =
                operator.approveReplay(List.of(old.id(), v1.id()), ada, "upcaster shipped", false);

        assertThat(done.get(old.id()))
                .isInstanceOfSatisfying(
                        ReplayOutcome.Sent.class, s -> assertThat(s.upcast()).isEqualTo("upcast v1 to v2"));
        assertThat(done.get(v1.id())).isInstanceOf(ReplayOutcome.Refused.class);
        assertThat(operator.show(old.id()).orElseThrow().audit())
                .extracting(AuditEntry::actor)
                .contains(ada);
        assertThat(operator.show(v1.id()).orElseThrow().state()).isEqualTo(QuarantineState.ARCHIVED);
    }

    @Test
    void aPersonArchivesWithANoteAndTheAutomationCannot() {
        QuarantineRecord crash = operator.list(new QuarantineQuery(
                        Optional.empty(), Set.of(), Set.of(FailureClass.POISON), Optional.empty(), Optional.empty(), 1))
                .get(0);

        Map<String, ArchiveDecision.Outcome> outcome =
                operator.archive(List.of(crash.id()), ada, "crashes the consumer; BUG-1", false);

        assertThat(outcome.get(crash.id())).isInstanceOf(ArchiveDecision.Archived.class);
        QuarantineRecord archived = operator.show(crash.id()).orElseThrow();
        assertThat(archived.state()).isEqualTo(QuarantineState.ARCHIVED);
        assertThat(archived.note()).contains("BUG-1");
        assertThat(archived.audit().get(archived.audit().size() - 1).actor()).isEqualTo(ada);
        assertThatThrownBy(() -> operator.archive(List.of(crash.id()), Actor.AUTOMATION, "no", false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void windowsAreAddedListedAndRemoved() {
        MaintenanceWindow w =
                new MaintenanceWindow("chg-9", "email-provider", T0, T0.plusSeconds(600), "ada", "vendor notice");
        operator.addWindow(w);
        assertThat(operator.windows()).contains(w);
        assertThat(operator.removeWindow("chg-9")).isTrue();
        assertThat(operator.windows()).doesNotContain(w);
    }

    @Test
    void aDependencyIsKnownFromTheBreakersTheWindowsOrTheLedgerAndATypoIsRefusedNamingThem() {
        OperatorPort withBreakers = f.operator()
                .breakers(f.breakers, List.of("email-provider", "revenue-store"))
                .build();
        f.dlq.add(ROUTE.deadLetterQueue(), attached("t1|x", FailureClass.TRANSIENT, "Timeout", "tax-service", T0));
        f.sweep();

        assertThat(withBreakers.requireDependency("email-provider")).isEqualTo("email-provider");
        assertThat(withBreakers.requireDependency("payments")).as("a window's").isEqualTo("payments");
        assertThat(withBreakers.requireDependency("tax-service"))
                .as("a failure's")
                .isEqualTo("tax-service");
        assertThatThrownBy(() -> withBreakers.requireDependency("emial-provider"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown dependency 'emial-provider': did you mean 'email-provider'? Known: "
                        + "email-provider, payments, revenue-store, tax-service (the shared circuit breakers, the "
                        + "maintenance windows, the dead letters' failures)");
        assertThatThrownBy(() -> operator.requireDependency("email-provider"))
                .as("without breakers only the windows and the failures are known")
                .hasMessageStartingWith("unknown dependency 'email-provider': Known: payments, tax-service");
    }

    @Test
    void aNewWindowIsCheckedForItsDependencyItsIdAndAHoldThatIsOver() {
        OperatorPort withBreakers =
                f.operator().breakers(f.breakers, List.of("email-provider")).build();
        java.time.Instant now = f.clock.instant();
        MaintenanceWindow fine =
                new MaintenanceWindow("chg-1", "email-provider", now, now.plusSeconds(600), "ada", "CHG-1", true);
        withBreakers.checkNewWindow(fine);

        assertThatThrownBy(() -> withBreakers.checkNewWindow(
                        new MaintenanceWindow("chg-2", "emial-provider", now, now.plusSeconds(600), "ada", "CHG-2")))
                .hasMessageStartingWith("unknown dependency 'emial-provider': did you mean 'email-provider'?");
        assertThatThrownBy(() -> withBreakers.checkNewWindow(
                        new MaintenanceWindow("w", "email-provider", now, now.plusSeconds(600), "ada", "again")))
                .hasMessage("a window with id 'w' exists already");
        assertThatThrownBy(() -> withBreakers.checkNewWindow(new MaintenanceWindow(
                        "chg-3", "email-provider", now.minusSeconds(600), now, "ada", "late", true)))
                .hasMessageStartingWith("a window holds its breaker while it lasts, and this one is over");
        withBreakers.checkNewWindow(
                new MaintenanceWindow("chg-4", "email-provider", now.minusSeconds(600), now, "ada", "past, no hold"));
        assertThat(withBreakers.windows()).extracting(MaintenanceWindow::id).containsExactly("w");
    }

    private QuarantineRecord only(String errorType, boolean upcastable) {
        return operator
                .list(new QuarantineQuery(
                        Optional.empty(), Set.of(), Set.of(), Optional.empty(), Optional.of(errorType), 10))
                .stream()
                .filter(r -> upcastable == r.body().startsWith("v1:"))
                .findFirst()
                .orElseThrow();
    }
}
