package dev.redrive.core.operator;

import dev.redrive.core.quarantine.Actor;
import dev.redrive.core.quarantine.ArchiveDecision;
import dev.redrive.core.quarantine.QuarantineLedger;
import dev.redrive.core.quarantine.QuarantineRecord;
import dev.redrive.core.quarantine.QuarantineState;
import dev.redrive.core.replay.MaintenanceWindow;
import dev.redrive.core.replay.MaintenanceWindows;
import dev.redrive.core.replay.ReplayOutcome;
import dev.redrive.core.replay.ReplayService;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The operator port over the ledger, the replay service, the archive decision and the windows. */
public final class LedgerOperator implements OperatorPort {

    private final QuarantineLedger ledger;
    private final ReplayService replays;
    private final ArchiveDecision archives;
    private final MaintenanceWindows windows;
    private final Clock clock;

    public LedgerOperator(QuarantineLedger ledger, ReplayService replays, MaintenanceWindows windows, Clock clock) {
        this.ledger = ledger;
        this.replays = replays;
        this.archives = new ArchiveDecision(ledger, clock);
        this.windows = windows;
        this.clock = clock;
    }

    @Override
    public List<QuarantineRecord> list(QuarantineQuery query) {
        List<QuarantineRecord> found = new ArrayList<>();
        for (QuarantineState state : query.states()) {
            for (QuarantineRecord r : ledger.inState(state, query.sourceQueue(), Integer.MAX_VALUE)) {
                if (query.matches(r, clock.instant())) {
                    found.add(r);
                }
            }
        }
        found.sort(Comparator.comparing(QuarantineRecord::arrivedAt).thenComparing(QuarantineRecord::id));
        return found.size() <= query.limit() ? found : List.copyOf(found.subList(0, query.limit()));
    }

    @Override
    public Optional<QuarantineRecord> show(String quarantineId) {
        return ledger.find(quarantineId);
    }

    @Override
    public Map<String, ReplayOutcome> approveReplay(
            List<String> quarantineIds, Actor person, String reason, boolean dryRun) {
        requirePerson(person);
        if (!dryRun) {
            return replays.replayAll(quarantineIds, person, reason, Optional.empty());
        }
        Map<String, ReplayOutcome> outcomes = new LinkedHashMap<>();
        quarantineIds.forEach(id -> outcomes.put(id, replays.replay(id, person, reason, Optional.empty(), true)));
        return outcomes;
    }

    @Override
    public Map<String, ArchiveDecision.Outcome> archive(
            List<String> quarantineIds, Actor person, String note, boolean dryRun) {
        requirePerson(person);
        Map<String, ArchiveDecision.Outcome> outcomes = new LinkedHashMap<>();
        quarantineIds.forEach(id -> outcomes.put(id, archives.archive(id, person, note, dryRun)));
        return outcomes;
    }

    @Override
    public MaintenanceWindow addWindow(MaintenanceWindow window) {
        windows.add(window);
        return window;
    }

    @Override
    public List<MaintenanceWindow> windows() {
        return windows.list();
    }

    @Override
    public boolean removeWindow(String id) {
        return windows.remove(id);
    }

    private static void requirePerson(Actor person) {
        if (person.automated()) {
            throw new IllegalArgumentException("operator decisions are a person's; the automation has its own path");
        }
    }
}
